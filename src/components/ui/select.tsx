import { forwardRef, type SelectHTMLAttributes } from 'react';
import { cn } from './cn';
import { fieldClass } from './input';

export interface SelectOption {
  value: string;
  label: string;
}

/** A native select: keyboard and screen-reader behaviour for free. */
export const Select = forwardRef<HTMLSelectElement, SelectHTMLAttributes<HTMLSelectElement> & { options: readonly SelectOption[] }>(
  function Select({ className, options, ...props }, ref) {
    return (
      <select ref={ref} className={cn(fieldClass, className)} {...props}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    );
  },
);
