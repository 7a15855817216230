import { forwardRef, type ButtonHTMLAttributes } from 'react';
import { cn } from './cn';

const VARIANTS = {
  primary: 'bg-brand-700 text-white hover:bg-navy-800',
  secondary: 'border border-navy-700 bg-white text-navy-800 hover:bg-surface',
  destructive: 'bg-danger text-white hover:bg-red-800',
  ghost: 'text-navy-800 hover:bg-surface',
} as const;
/** Below 48rem every button is at least 44 px tall (a finger's width); from there the compact sizes. */
const SIZES = { md: 'min-h-11 px-4 py-2 text-sm md:min-h-10', sm: 'min-h-11 px-3 py-1 text-sm md:min-h-8' } as const;

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: keyof typeof VARIANTS;
  size?: keyof typeof SIZES;
}

export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { variant = 'primary', size = 'md', className, type = 'button', ...props },
  ref,
) {
  return (
    <button
      ref={ref}
      type={type}
      className={cn(
        'inline-flex items-center justify-center gap-2 rounded-md font-semibold transition-colors disabled:cursor-not-allowed disabled:opacity-60',
        VARIANTS[variant],
        SIZES[size],
        className,
      )}
      {...props}
    />
  );
});
