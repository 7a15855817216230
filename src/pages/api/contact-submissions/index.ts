import { requireAdmin } from '#server/auth/guard.ts';
import { conditionalResponse, jsonEntity } from '#server/conditional.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, methodNotAllowed } from '#server/http.ts';
import { listSubmissions } from '#server/services/contact-submissions.ts';
import { cachedLeadsAnswer } from '#server/services/leads-stamp.ts';
import { submissionPageQuerySchema } from '#shared/schemas/contact-submission.ts';

export const prerender = false;

/**
 * One page of submissions, newest first, each with its responses and their delivery state. The
 * body stays the list (an array); `Link: <…>; rel="next"` names the next page and
 * `X-Total-Count` the rows the filters match (a search counts up to 1,000, and then adds
 * `X-Total-Capped: true`). Filters: view (inbox or spam; none means both),
 * status, buyerType, q; `limit` 1–200 (50). An ETag lets the tab's 30 s poll get a 304, and an answer is computed again only
 * when the leads change stamp has moved (services/leads-stamp.ts).
 */
export const GET = defineHandler(async ({ locals, request, url }) => {
  requireAdmin(locals);
  const query = submissionPageQuerySchema.parse(Object.fromEntries(url.searchParams));
  const db = await getDb();
  // The parameters as parsed, in one order: a parameter the list does not take, or the same ones
  // in another order, is the same answer (and the same kept entry), not one more computed.
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ view: query.view, status: query.status, buyerType: query.buyerType, q: query.q })) {
    if (value) params.set(key, value);
  }
  params.set('limit', String(query.limit));
  const entity = await cachedLeadsAnswer(db, `list?${params}&cursor=${query.cursor ?? ''}`, async () => {
    const page = await listSubmissions(db, query);
    const headers: Record<string, string> = { 'x-total-count': String(page.total) };
    // A search counts up to SEARCH_COUNT_CAP: past it X-Total-Count is the cap and this says so.
    if (page.capped) headers['x-total-capped'] = 'true';
    if (page.next) headers.link = `<${url.pathname}?${params}&cursor=${page.next}>; rel="next"`;
    return jsonEntity(page.rows, headers);
  });
  return conditionalResponse(request, entity);
});

export const ALL = methodNotAllowed(['GET']);
