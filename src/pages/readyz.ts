import { json } from '#server/http.ts';
import { readiness } from '#server/health.ts';

export const prerender = false;

/** Readiness for a load balancer: 200 when this instance can serve, 503 (with the checks) when not. */
export const GET = async () => {
  const { ready, checks } = await readiness();
  return json({ status: ready ? 'ready' : 'unavailable', checks }, { status: ready ? 200 : 503, headers: { 'cache-control': 'no-store' } });
};
