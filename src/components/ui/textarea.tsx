import { forwardRef, type TextareaHTMLAttributes } from 'react';
import { cn } from './cn';
import { fieldClass } from './input';

export const Textarea = forwardRef<HTMLTextAreaElement, TextareaHTMLAttributes<HTMLTextAreaElement>>(function Textarea(
  { className, rows = 4, ...props },
  ref,
) {
  return <textarea ref={ref} rows={rows} className={cn(fieldClass, className)} {...props} />;
});
