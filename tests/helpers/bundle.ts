/**
 * The server bundle (dist/server/entry.mjs) as the suites load it. A serving process holds one
 * copy of the server code, the bundle's: the suites start their servers with its `serve`, and read
 * or move that server's state (the clock, the publisher, the mail worker…) through its functions,
 * not through their own copy of the modules. Needs `npm run build` first (npm test does it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { resetEnvCache as resetOwnEnvCache } from '#server/env.ts';
import type { ServerBundle } from '#server/astro-entry.ts';

const entry = path.resolve('dist/server/entry.mjs');
if (!fs.existsSync(entry)) throw new Error('dist/server/entry.mjs is missing: run `npm run build` first');
const bundle = (await import(pathToFileURL(entry).href)) as ServerBundle;

export const { serve } = bundle;
/** Renders one route of the public site from a content snapshot, as a publish does. */
export const { renderPage } = bundle;
/** The server's state and what reads it: `const { advanceClock } = bundleApi;` in a suite. */
export const { bundleApi } = bundle;

/** After a change to process.env: the environment read afresh by the server and by the suite's own helpers. */
export function resetEnvCache(): void {
  resetOwnEnvCache();
  bundle.bundleApi.resetEnvCache();
}
