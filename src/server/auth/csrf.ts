import { env } from '../env';

const SAFE: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Cross-site request check for state-changing calls: a browser always sends Origin (and
 * Sec-Fetch-Site) on them, so a request whose Origin is not ours, or that the browser marks as
 * cross-site, is refused. Requests with neither come from non-browser clients, which hold no
 * victim's cookies.
 */
export function isCrossSite(request: Request, url: URL): boolean {
  if (SAFE.has(request.method)) return false;
  const site = request.headers.get('sec-fetch-site');
  if (site === 'cross-site' || site === 'same-site') return true;
  const origin = request.headers.get('origin');
  if (!origin) return false;
  if (origin === 'null') return true;
  const allowed = new Set([url.origin]);
  try {
    allowed.add(new URL(env().SITE_URL).origin);
  } catch {
    /* SITE_URL is validated by env() */
  }
  return !allowed.has(origin);
}

/**
 * The refusal's text. It names the site's own address: the usual cause, besides a forged request,
 * is a browser at another address than SITE_URL (a server reached by its IP, or SITE_URL unset).
 */
export function crossSiteRefusal(): string {
  let origin = '';
  try {
    origin = new URL(env().SITE_URL).origin;
  } catch {
    /* SITE_URL is validated by env() */
  }
  return `Cross-site request refused: this site's address is ${origin} (SITE_URL). Open the site at that address, or set SITE_URL to the address in the browser.`;
}
