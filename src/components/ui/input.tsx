import { forwardRef, type InputHTMLAttributes } from 'react';
import { cn } from './cn';

export const fieldClass =
  // On a phone: 44 px tall, and 16 px text so that mobile browsers do not zoom into the field.
  'block min-h-11 w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-base text-ink aria-[invalid=true]:border-danger disabled:bg-surface md:min-h-10 md:text-sm';

export const Input = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>(function Input({ className, ...props }, ref) {
  return <input ref={ref} className={cn(fieldClass, className)} {...props} />;
});
