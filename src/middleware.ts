import { defineMiddleware } from 'astro:middleware';
import { HINT_COOKIE } from '#server/auth/cookies.ts';
import { idleSecondsLeft, readSession } from '#server/auth/session.ts';
import { getDb } from '#server/db/client.ts';
import { clientAddress } from '#server/client-ip.ts';
import { json } from '#server/http.ts';
import { crossSiteRefusal, isCrossSite } from '#server/auth/csrf.ts';
import { onlyLogged } from '#server/content/changes.ts';
import { snapshotContent } from '#server/content/site-content.ts';
import { RELEASE_ROUTES } from '#server/content/routes.ts';
import { withPageCsp } from '#server/security-headers.ts';
import { BACKGROUND_HEADER, IDLE_HEADER } from '#shared/session.ts';

const STATUS_TEXT: Record<number, string> = { 404: 'Not found', 405: 'Method not allowed' };

/**
 * Session -> locals on on-demand routes (published pages have no request to read), and a JSON
 * body for any /api error Astro itself produced (unknown route or method), never an HTML page.
 */
export const onRequest = defineMiddleware(async (ctx, next) => {
  ctx.locals.user = null;
  ctx.locals.session = null;
  // The server gives its engine's publish request (main.ts); without one a change is only logged.
  ctx.locals.publish ??= onlyLogged;
  // A prerendered page, or the publisher rendering one into a release: no request to read.
  if (ctx.isPrerendered || ctx.locals.siteContent) return next();
  // `npm run dev` renders the public pages on every request, from the database as it is now.
  if (import.meta.env.DEV && RELEASE_ROUTES.has(ctx.routePattern)) {
    ctx.locals.siteContent = await snapshotContent(await getDb());
    return next();
  }
  // Health checks answer without a session lookup (a load balancer polls them every few seconds).
  if (ctx.url.pathname === '/healthz' || ctx.url.pathname === '/readyz') return next();

  if (isCrossSite(ctx.request, ctx.url)) {
    return json({ message: crossSiteRefusal() }, { status: 403 });
  }
  ctx.locals.clientIp = clientAddress(ctx.request, () => ctx.clientAddress);
  const found = await readSession(await getDb(), ctx.request, { touch: !ctx.request.headers.has(BACKGROUND_HEADER) });
  if (found.state === 'valid') {
    ctx.locals.user = found.user;
    ctx.locals.session = found.session;
  } else if (found.state === 'invalid') {
    // An ended or expired session: drop its cookie and the header's hint with it.
    ctx.cookies.delete(found.cookieName, { path: '/' });
    ctx.cookies.delete(HINT_COOKIE, { path: '/' });
  }

  const response = await next();
  const isApi = ctx.url.pathname.toLowerCase().startsWith('/api/');
  if (isApi && response.status >= 400 && !response.headers.get('content-type')?.includes('application/json')) {
    return json({ message: STATUS_TEXT[response.status] ?? 'Request failed' }, { status: response.status });
  }
  // The back office's idle warning counts down from what the server knows, not from a guess.
  const session = ctx.locals.session;
  if (isApi && session && !response.headers.has(IDLE_HEADER)) {
    try {
      response.headers.set(IDLE_HEADER, String(idleSecondsLeft(session)));
    } catch {
      /* a response with immutable headers: the warning keeps its last figure */
    }
  }
  return isApi ? response : withPageCsp(response);
});
