import { requireAdmin } from '#server/auth/guard.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, methodNotAllowed } from '#server/http.ts';
import { exportSubmissionsCsv } from '#server/services/contact-submissions.ts';
import { submissionFilterSchema } from '#shared/schemas/contact-submission.ts';

export const prerender = false;

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
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      await locals.drained?.();
      const { value, done } = await batches.next();
      if (done) return controller.close();
      controller.enqueue(encoder.encode(first ? `\uFEFF${value}` : value));
      first = false;
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
