import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';

/** SPEC 9: one toast at a time; shown 5 s; F8 focuses the toast region. */
export interface ToastInput {
  title: string;
  description?: string;
  variant?: 'default' | 'destructive';
}
interface Toast extends ToastInput {
  id: number;
}

const DURATION_MS = 5000;
const ToastContext = createContext<((t: ToastInput) => void) | null>(null);

export function useToast(): (t: ToastInput) => void {
  const ctx = useContext(ToastContext);
  if (!ctx) throw new Error('useToast must be used within a ToastProvider');
  return ctx;
}

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toast, setToast] = useState<Toast | null>(null);
  const seq = useRef(0);
  const region = useRef<HTMLElement>(null);
  const show = useCallback((t: ToastInput) => setToast({ ...t, id: ++seq.current }), []);

  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(() => setToast((cur) => (cur?.id === toast.id ? null : cur)), DURATION_MS);
    return () => clearTimeout(timer);
  }, [toast]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'F8') region.current?.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const value = useMemo(() => show, [show]);
  const destructive = toast?.variant === 'destructive';
  return (
    <ToastContext.Provider value={value}>
      {children}
      <section
        ref={region}
        tabIndex={-1}
        aria-label="Notifications (F8)"
        className="fixed right-0 bottom-0 z-[100] w-full max-w-sm p-4 outline-none"
      >
        <ol className="flex flex-col gap-2">
          {toast && (
            <li
              key={toast.id}
              role={destructive ? 'alert' : 'status'}
              aria-live={destructive ? 'assertive' : 'polite'}
              className={`flex items-start justify-between gap-3 rounded-lg border p-4 shadow-lg ${
                destructive ? 'border-red-700 bg-red-700 text-white' : 'border-line bg-white text-ink'
              }`}
            >
              <div>
                <p className="font-semibold">{toast.title}</p>
                {toast.description && <p className="mt-1 text-sm opacity-90">{toast.description}</p>}
              </div>
              <button
                type="button"
                onClick={() => setToast(null)}
                className="-m-2 inline-flex h-11 w-11 shrink-0 items-center justify-center rounded text-xl leading-none opacity-80 hover:opacity-100"
                aria-label="Close notification"
              >
                ×
              </button>
            </li>
          )}
        </ol>
      </section>
    </ToastContext.Provider>
  );
}
