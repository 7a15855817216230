/**
 * The last step of `npm run build:static`: the insights search index (Pagefind) beside the
 * prerendered pages, in `$STATIC_OUT_DIR/client/pagefind` (dist-static by default), made from the
 * same content the pages were (CONTENT_SNAPSHOT, or the database). A server that renders its own
 * releases makes the same index after each publish (src/server/publish/search-index.ts).
 */
import path from 'node:path';
import { loadSiteContent } from '#server/content/site-content.ts';
import { writeSearchIndexTo } from '#server/publish/search-index.ts';

const client = path.resolve(process.env.STATIC_OUT_DIR || 'dist-static', 'client');
const files = await writeSearchIndexTo(client, await loadSiteContent());
console.log(`search index: ${files} files in ${path.relative(process.cwd(), client)}/pagefind`);
