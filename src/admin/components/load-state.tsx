import type { ReactNode } from 'react';
import { Button } from '#components/ui/button.tsx';
import { Skeleton } from '#components/ui/skeleton.tsx';
import { errorMessage } from '#lib/api-client.ts';

/** SPEC 2.15: 'Error: {message}' (or 'Unknown error') with a Try Again button. */
export function LoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  // The spec's 'Error: {message}', the message in plain words (never '500: …').
  const message = error instanceof Error ? `Error: ${errorMessage(error)}` : 'Unknown error';
  return (
    <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-800">
      <p>{message}</p>
      <Button variant="secondary" size="sm" className="mt-3" onClick={onRetry}>
        Try Again
      </Button>
    </div>
  );
}

/** Skeleton rows while a list or record loads. */
export function LoadingRows({ rows = 3, label = 'Loading' }: { rows?: number; label?: string }) {
  return (
    <div role="status" aria-busy="true" aria-label={label} className="space-y-3">
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} className="h-10 w-full" />
      ))}
    </div>
  );
}

/** A titled card holding one editor. */
export function EditorCard({
  title,
  description,
  actions,
  children,
}: {
  title: string;
  description?: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="rounded-lg border border-line bg-white p-4 shadow-sm sm:p-5" aria-label={title}>
      <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 className="text-lg font-semibold">{title}</h2>
          {description && <p className="mt-1 text-sm text-muted">{description}</p>}
        </div>
        {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
      </div>
      {children}
    </section>
  );
}

/** SPEC 2.15 dates: en-US short format. */
export function formatDate(value: string | null | undefined): string {
  return value ? new Date(value).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' }) : '';
}
export function formatDateTime(value: string | null | undefined): string {
  return value ? new Date(value).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' }) : '';
}
