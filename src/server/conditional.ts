import { createHash } from 'node:crypto';
import fresh from 'fresh';

/** A JSON answer ready to send: its text and headers, with a weak ETag over both. */
export interface JsonEntity {
  text: string;
  headers: Record<string, string>;
}

export function jsonEntity(body: unknown, headers: Record<string, string> = {}): JsonEntity {
  const text = JSON.stringify(body);
  const hash = createHash('sha1').update(text).update(JSON.stringify(headers)).digest('base64url');
  return { text, headers: { ...headers, etag: `W/"${hash}"`, 'cache-control': 'no-store' } };
}

/**
 * The entity, or 304 without a body when the request's If-None-Match already names it, so a
 * poll that finds nothing new costs no transfer. The answer stays no-store (an administrator's
 * data is never kept on disk): the browser remembers the last answer in memory and revalidates
 * it itself. The request's own `Cache-Control: no-cache` (which browsers add to any request
 * carrying If-None-Match) is about caches, of which there are none here, so only If-None-Match
 * is compared.
 */
export function conditionalResponse(request: Request, entity: JsonEntity): Response {
  if (fresh({ 'if-none-match': request.headers.get('if-none-match') ?? undefined }, entity.headers)) {
    return new Response(null, { status: 304, headers: entity.headers });
  }
  return new Response(entity.text, { headers: { ...entity.headers, 'content-type': 'application/json; charset=utf-8' } });
}

/** JSON with a weak ETag over its body and the given headers, answered 304 when unchanged. */
export function conditionalJson(request: Request, body: unknown, headers: Record<string, string> = {}): Response {
  return conditionalResponse(request, jsonEntity(body, headers));
}
