import { json } from '#server/http.ts';

export const prerender = false;

/** Liveness: the process answers. Checks nothing else, so a database outage never restarts it. */
export const GET = () => json({ status: 'ok' }, { headers: { 'cache-control': 'no-store' } });
