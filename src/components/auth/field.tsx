import { forwardRef, useId, useSyncExternalStore, type InputHTMLAttributes } from 'react';

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string;
  hint?: string;
}

/** A labelled input with its validation message wired to it for screen readers. */
export const Field = forwardRef<HTMLInputElement, FieldProps>(function Field({ label, error, hint, id, className, ...rest }, ref) {
  const auto = useId();
  const inputId = id ?? auto;
  const describedBy = [error ? `${inputId}-error` : null, hint ? `${inputId}-hint` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={inputId} className="text-sm font-semibold text-ink">
        {label}
      </label>
      <input
        ref={ref}
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={`min-h-11 rounded-md border bg-white px-3 py-2 text-base text-ink focus:border-brand-600 ${error ? 'border-danger' : 'border-line'} ${className ?? ''}`}
        {...rest}
      />
      {hint && (
        <p id={`${inputId}-hint`} className="text-sm text-muted">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${inputId}-error`} className="text-sm font-medium text-danger">
          {error}
        </p>
      )}
    </div>
  );
});

/** Keeps only digits, at most six: the code fields (SPEC 5). */
export function digitsOnly(value: string): string {
  return value.replace(/\D/g, '').slice(0, 6);
}

/**
 * A form's own failure message (wrong password, expired code): always in the page as a live region,
 * so that a screen reader announces each new message, and shown beside the button that failed.
 */
export function FormFailure({ message }: { message?: string }) {
  return (
    // Empty, it takes back the form's 1.25 rem gap, so the form does not move until there is a message.
    <div aria-live="assertive" aria-atomic="true" className={message ? undefined : '-mt-5'}>
      {message && (
        <p className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm font-medium text-danger" data-testid="sign-in-error">
          {message}
        </p>
      )}
    </div>
  );
}

const noSubscription = () => () => {};

/**
 * False in the server's HTML and until the island hydrates, then true. A form rendered by the
 * server would, if submitted before hydration, be sent by the browser itself (a GET with every
 * field in the address, a password included): its controls wait for this instead.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
