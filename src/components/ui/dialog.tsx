import * as DialogPrimitive from '@radix-ui/react-dialog';
import { useRef, type ReactNode } from 'react';
import { cn } from './cn';

interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  children: ReactNode;
  /** 'alertdialog' for confirmations that interrupt. */
  role?: 'dialog' | 'alertdialog';
  className?: string;
  /** Where focus goes on closing, when not back to what had it at opening. */
  returnFocus?: () => HTMLElement | null;
}

/** A modal with a title (and description) wired for screen readers; Escape and the ✕ close it. */
export function Dialog({ open, onOpenChange, title, description, children, role = 'dialog', className, returnFocus }: DialogProps) {
  // Opened from code (no Radix trigger), the dialog would hand focus to <body> on closing: give it
  // back to whatever had it when the dialog opened, as a keyboard user expects.
  const opener = useRef<HTMLElement | null>(null);
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/50" />
        <DialogPrimitive.Content
          role={role}
          onOpenAutoFocus={() => {
            opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
          }}
          onCloseAutoFocus={(event) => {
            const el = returnFocus?.() ?? opener.current;
            opener.current = null;
            if (el?.isConnected) {
              event.preventDefault();
              el.focus();
            }
          }}
          {...(description ? {} : { 'aria-describedby': undefined })}
          // On a phone the dialog fills the screen; from 40rem it is a centred box.
          className={cn(
            'fixed inset-0 z-50 overflow-y-auto bg-white p-4 sm:inset-auto sm:top-1/2 sm:left-1/2 sm:max-h-[90vh] sm:w-[min(42rem,calc(100vw-2rem))] sm:-translate-x-1/2 sm:-translate-y-1/2 sm:rounded-lg sm:p-6 sm:shadow-xl',
            className,
          )}
        >
          <DialogPrimitive.Title className="pr-12 text-lg font-semibold text-ink">{title}</DialogPrimitive.Title>
          {description && <DialogPrimitive.Description className="mt-1 text-sm text-muted">{description}</DialogPrimitive.Description>}
          <div className="mt-4">{children}</div>
          <DialogPrimitive.Close
            aria-label="Close"
            className="absolute top-2 right-2 inline-flex h-11 w-11 items-center justify-center rounded text-2xl leading-none text-muted hover:text-ink sm:top-3 sm:right-3"
          >
            ×
          </DialogPrimitive.Close>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
