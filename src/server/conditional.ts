import { createHash } from 'node:crypto';
import fresh from 'fresh';

/**
 * JSON with a weak ETag over its body and the given headers; 304 without a body when the
 * request's If-None-Match already names it, so a poll that finds nothing new costs no transfer.
 * The answer stays no-store (an administrator's data is never kept on disk): the browser
 * remembers the last answer in memory and revalidates it itself. The request's own
 * `Cache-Control: no-cache` (which browsers add to any request carrying If-None-Match) is about
 * caches, of which there are none here, so only If-None-Match is compared.
 */
export function conditionalJson(request: Request, body: unknown, headers: Record<string, string> = {}): Response {
  const text = JSON.stringify(body);
  const hash = createHash('sha1').update(text).update(JSON.stringify(headers)).digest('base64url');
  const all = { ...headers, etag: `W/"${hash}"`, 'cache-control': 'no-store' };
  if (fresh({ 'if-none-match': request.headers.get('if-none-match') ?? undefined }, all)) {
    return new Response(null, { status: 304, headers: all });
  }
  return new Response(text, { headers: { ...all, 'content-type': 'application/json; charset=utf-8' } });
}
