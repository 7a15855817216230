import type { ButtonHTMLAttributes } from 'react';
import { cn } from './cn';

interface SwitchProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'onChange'> {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
}

/** An on/off switch (WAI-ARIA switch role); label it with `aria-label` or a `<label htmlFor>`. */
export function Switch({ checked, onCheckedChange, className, disabled, ...props }: SwitchProps) {
  // The track is 24 px tall; the button around it is 44 px, a finger's width (touch targets).
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      disabled={disabled}
      onClick={() => onCheckedChange(!checked)}
      className={cn('inline-flex min-h-11 min-w-11 shrink-0 items-center disabled:opacity-60', className)}
      {...props}
    >
      <span
        aria-hidden="true"
        className={cn(
          'relative inline-flex h-6 w-11 items-center rounded-full transition-colors',
          checked ? 'bg-brand-700' : 'bg-slate-400',
        )}
      >
        <span
          className={cn(
            'inline-block h-5 w-5 rounded-full bg-white shadow transition-transform',
            checked ? 'translate-x-5' : 'translate-x-0.5',
          )}
        />
      </span>
    </button>
  );
}
