import { requireAdmin } from '#server/auth/guard.ts';
import { getDb } from '#server/db/client.ts';
import { HttpError, defineHandler, json } from '#server/http.ts';
import { visitsReport } from '#server/services/visits.ts';
import { VISIT_PERIODS, type VisitPeriod } from '#shared/visits.ts';

export const prerender = false;

/** The Visits tab's figures: `?days=` 7, 30 (the default) or 90. */
export const GET = defineHandler(async ({ locals, url }) => {
  requireAdmin(locals);
  const days = Number(url.searchParams.get('days') ?? 30);
  if (!VISIT_PERIODS.includes(days as VisitPeriod)) throw new HttpError(400, `days must be one of ${VISIT_PERIODS.join(', ')}`);
  return json(await visitsReport(await getDb(), days));
});
