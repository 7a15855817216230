import { configuredProviders } from '#server/auth/better-auth.ts';
import { authFor } from '#server/auth/session.ts';
import { getDb } from '#server/db/client.ts';
import { HttpError, defineHandler } from '#server/http.ts';

export const prerender = false;

/**
 * The provider sign-in path (SPEC 2.14): a browser navigation that starts the provider's OAuth
 * flow (better-auth keeps the state) and comes back to /api/auth/callback/{provider}.
 */
export const GET = defineHandler(async ({ params, request }) => {
  const provider = params.provider ?? '';
  if (!configuredProviders().includes(provider)) throw new HttpError(404, 'Sign-in provider not available');
  const { headers, response } = await authFor(await getDb(), request).api.signInSocial({
    body: { provider: provider as 'google', callbackURL: '/admin', errorCallbackURL: '/auth', disableRedirect: true },
    headers: request.headers,
    returnHeaders: true,
  });
  if (!response.url) throw new HttpError(502, 'The sign-in provider did not answer');
  const out = new Headers({ location: response.url, 'cache-control': 'no-store' });
  for (const c of headers.getSetCookie()) out.append('set-cookie', c);
  return new Response(null, { status: 302, headers: out });
});
