import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useToast } from '#components/ui/toast.tsx';
import { errorMessage } from '#lib/api-client.ts';
import { publishKeys, publishStatusQuery, type ChangedPage } from './publish';

type Text<V> = string | ((vars: V, err?: unknown) => string);

interface AdminMutationOptions<V, R> {
  mutationFn: (vars: V) => Promise<R>;
  /** Lists to refetch after a successful save (SPEC 2.15). */
  invalidate: QueryKey[] | ((vars: V) => QueryKey[]);
  /** SPEC 8 success toast. */
  success: Text<V>;
  /** A line under the success toast's title (e.g. the file a new document holds, with its size). */
  successDetail?: (vars: V, result: R) => string;
  /** SPEC 8 failure toast; the server's message becomes its description unless `failureIncludesMessage`. */
  failure: Text<V>;
  /** The public page the save changed, for "View on site" once it is live (none: no link). */
  page?: (vars: V, result: R) => string | null;
}

/** The launch checklist's key: every save may clear (or add) one of its items, so every save reads it again. */
export const LAUNCH_CHECKLIST_KEY = ['admin', 'launch-checklist'] as const;

const text = <V>(t: Text<V>, vars: V, err?: unknown) => (typeof t === 'function' ? t(vars, err) : t);

/** A mutation that refetches the lists it changed and shows one toast either way. */
export function useAdminMutation<V, R = unknown>(opts: AdminMutationOptions<V, R>) {
  const qc = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: opts.mutationFn,
    onSuccess: async (result, vars) => {
      toast({ title: text(opts.success, vars), description: opts.successDetail?.(vars, result) });
      const path = opts.page?.(vars, result);
      if (path) {
        const liveBefore = qc.getQueryData(publishStatusQuery.queryKey)?.lastPublishedAt ?? null;
        qc.setQueryData(publishKeys.changed, { path, liveBefore } satisfies ChangedPage);
      }
      const keys = typeof opts.invalidate === 'function' ? opts.invalidate(vars) : opts.invalidate;
      // The save scheduled a publish: show it in the header at once.
      await Promise.all([...keys, publishKeys.status, LAUNCH_CHECKLIST_KEY].map((queryKey) => qc.invalidateQueries({ queryKey })));
    },
    onError: (err, vars) => {
      const title = text(opts.failure, vars, err);
      const detail = errorMessage(err, '');
      toast({ title, description: title.includes(detail) ? undefined : detail || undefined, variant: 'destructive' });
    },
  });
}
