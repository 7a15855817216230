import { requireAdmin } from '#server/auth/guard.ts';
import { conditionalJson } from '#server/conditional.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, methodNotAllowed } from '#server/http.ts';
import { listSubmissions } from '#server/services/contact-submissions.ts';
import { submissionPageQuerySchema } from '#shared/schemas/contact-submission.ts';

export const prerender = false;

/**
 * One page of submissions, newest first, each with its responses and their delivery state. The
 * body stays the list (an array); `Link: <…>; rel="next"` names the next page and
 * `X-Total-Count` the rows the filters match. Filters: view (inbox or spam; none means both),
 * status, buyerType, q; `limit` 1–200 (50). An ETag lets the tab's 30 s poll get a 304.
 */
export const GET = defineHandler(async ({ locals, request, url }) => {
  requireAdmin(locals);
  const query = submissionPageQuerySchema.parse(Object.fromEntries(url.searchParams));
  const page = await listSubmissions(await getDb(), query);
  const headers: Record<string, string> = { 'x-total-count': String(page.total) };
  if (page.next) {
    const params = new URLSearchParams(url.searchParams);
    params.set('cursor', page.next);
    headers.link = `<${url.pathname}?${params}>; rel="next"`;
  }
  return conditionalJson(request, page.rows, headers);
});

export const ALL = methodNotAllowed(['GET']);
