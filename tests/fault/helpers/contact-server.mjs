/**
 * The server as the fault suite runs it: the server bundle's HTTP layer and Astro endpoints, on
 * the database of the environment (DATA_DIR's embedded database, or DATABASE_URL), without the
 * publisher or the mail worker (nothing here is about them). It prints `listening <port>` once
 * it answers, so the suite can kill it at any moment after. Plain JavaScript on the built bundle,
 * so each of the suite's many starts costs no TypeScript compiling.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const { serve } = await import(pathToFileURL(path.resolve('dist/server/entry.mjs')).href);
const { url } = await serve({ seed: 'once' });
console.log(`listening ${new URL(url).port}`);
