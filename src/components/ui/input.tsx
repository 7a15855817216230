import { forwardRef, type InputHTMLAttributes } from 'react';
import { cn } from './cn';

export const fieldClass =
  'block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-sm text-ink aria-[invalid=true]:border-danger disabled:bg-surface';

export const Input = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>(function Input({ className, ...props }, ref) {
  return <input ref={ref} className={cn(fieldClass, className)} {...props} />;
});
