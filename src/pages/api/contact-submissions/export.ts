import { requireAdmin } from '#server/auth/guard.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, methodNotAllowed } from '#server/http.ts';
import { exportSubmissionsCsv } from '#server/services/contact-submissions.ts';
import { submissionFilterSchema } from '#shared/schemas/contact-submission.ts';

export const prerender = false;

/** How much CSV is sent between two full collections (`gc` is there when node runs with --expose-gc, as `npm start` does). */
const COLLECT_EVERY_BYTES = 16 * 1024 * 1024;

/**
 * CSV of the submissions the tab's filters select (view, status, buyerType, q as query
 * parameters), streamed batch by batch: the server holds one batch however many rows there are.
 */
export const GET = defineHandler(async ({ locals, url }) => {
  requireAdmin(locals);
  const filter = submissionFilterSchema.parse(Object.fromEntries(url.searchParams));
  const db = await getDb();
  const batches = exportSubmissionsCsv(db, filter);
  const encoder = new TextEncoder();
  // Excel reads UTF-8 only after a byte-order mark.
  let first = true;
  let sinceCollected = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      await locals.drained?.();
      const { value, done } = await batches.next();
      if (done) return controller.close();
      const chunk = encoder.encode(first ? `\uFEFF${value}` : value);
      controller.enqueue(chunk);
      first = false;
      // Sent pieces that waited for a slow client have outlived V8's young generation: collect them
      // every few megabytes rather than let them pile up until V8's next full collection.
      sinceCollected += chunk.byteLength;
      if (sinceCollected >= COLLECT_EVERY_BYTES) {
        sinceCollected = 0;
        void globalThis.gc?.({ type: 'major', execution: 'async' });
      }
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="contact-submissions-${day}.csv"`,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
  });
});

export const ALL = methodNotAllowed(['GET']);
