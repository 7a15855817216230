import { requireAdmin } from '#server/auth/guard.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, methodNotAllowed } from '#server/http.ts';
import { exportSubmissionsCsv } from '#server/services/contact-submissions.ts';
import { submissionFilterSchema } from '#shared/schemas/contact-submission.ts';

export const prerender = false;

/** CSV of the submissions the tab shows (view, status and search as query parameters). */
export const GET = defineHandler(async ({ locals, url }) => {
  requireAdmin(locals);
  const filter = submissionFilterSchema.parse(Object.fromEntries(url.searchParams));
  const csv = await exportSubmissionsCsv(await getDb(), filter);
  const day = new Date().toISOString().slice(0, 10);
  return new Response(`\uFEFF${csv}`, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="contact-submissions-${day}.csv"`,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
  });
});

export const ALL = methodNotAllowed(['GET']);
