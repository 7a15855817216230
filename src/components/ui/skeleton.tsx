import { cn } from './cn';

/** A grey placeholder block; screen readers hear the surrounding `aria-busy` region instead. */
export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden="true" className={cn('animate-pulse rounded-md bg-slate-200', className)} />;
}
