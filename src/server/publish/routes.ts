import type { SiteContent } from '../content/site-content';

/** Static pages every release must contain (URL path → file in the release's client dir). */
export const STATIC_PAGES = ['/index.html', '/404.html'];

/** Every file a release built from this content must contain; a build missing one is refused. */
export function expectedFiles(content: SiteContent): string[] {
  void content;
  return [...STATIC_PAGES];
}
