import type { ReactNode } from 'react';
import { cn } from './cn';

const TONES = {
  neutral: 'bg-slate-100 text-slate-800',
  success: 'bg-brand-100 text-brand-700',
  muted: 'bg-slate-200 text-slate-700',
  info: 'bg-navy-800 text-white',
} as const;

export function Badge({ tone = 'neutral', children, className }: { tone?: keyof typeof TONES; children: ReactNode; className?: string }) {
  return (
    <span className={cn('inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold', TONES[tone], className)}>
      {children}
    </span>
  );
}
