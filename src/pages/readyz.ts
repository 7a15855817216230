import type { APIRoute } from 'astro';
import { readSession } from '#server/auth/session.ts';
import { clientAddress } from '#server/client-ip.ts';
import { getDb } from '#server/db/client.ts';
import { json } from '#server/http.ts';
import { readiness } from '#server/health.ts';

export const prerender = false;

/** 127.0.0.0/8 and ::1, also written IPv4-mapped: a monitor on the machine itself. */
const isLoopback = (address: string) => /^(?:::ffff:)?127\./i.test(address) || address === '::1';

/**
 * Whether the caller may read the checks (free disk bytes, the age of the mail queue): a monitor on
 * this machine, or a signed-in administrator. Behind a proxy (TRUST_PROXY) the visitor's address
 * counts, not the proxy's.
 */
async function mayReadChecks(request: Request, socketAddress: () => string | undefined): Promise<boolean> {
  if (isLoopback(clientAddress(request, socketAddress))) return true;
  if (!request.headers.has('cookie')) return false;
  try {
    const found = await readSession(await getDb(), request, { touch: false });
    return found.state === 'valid' && found.user.role === 'admin';
  } catch {
    return false; // the database is down: the status alone says so
  }
}

/**
 * Readiness for a load balancer: 200 when this instance can serve, 503 when not. Only a monitor on
 * this machine or an administrator also gets the checks; anyone else gets the status alone.
 */
export const GET: APIRoute = async (ctx) => {
  const { ready, checks } = await readiness();
  const status = ready ? 'ready' : 'unavailable';
  const body = (await mayReadChecks(ctx.request, () => ctx.clientAddress)) ? { status, checks } : { status };
  return json(body, { status: ready ? 200 : 503, headers: { 'cache-control': 'no-store' } });
};
