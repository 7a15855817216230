/**
 * `npm run content:export [-- FILE]`: writes the published content (default
 * `content-snapshot.json`) for a static build that cannot reach the database:
 * `CONTENT_SNAPSHOT=FILE npm run build:static`. With the embedded database, stop the server first
 * (or read GET /api/deploy/snapshot from it with DEPLOY_TOKEN).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { getDb } from '#server/db/client.ts';
import { snapshotContent } from '#server/content/site-content.ts';
import { runScript } from './run-script';

runScript(async () => {
  const { positionals } = parseArgs({ allowPositionals: true });
  const file = path.resolve(positionals[0] ?? 'content-snapshot.json');
  const content = await snapshotContent(await getDb());
  const tmp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(tmp, JSON.stringify(content));
  await fs.rename(tmp, file);
  console.log(`Content of ${content.insights.length} published insight(s) and every page written to ${file}.`);
});
