import { listPastPerformance } from '#server/content/public-content.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json, methodNotAllowed } from '#server/http.ts';

export const prerender = false;

/** The active past-performance entries, in display order (what the pages show). */
export const GET = defineHandler(async () => json(await listPastPerformance(await getDb(), { activeOnly: true })));

export const ALL = methodNotAllowed(['GET']);
