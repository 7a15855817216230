/**
 * `npm run db:restore -- FILE`: puts back what `npm run db:backup` saved. Every row of the database
 * is replaced (in one transaction); uploaded files missing here are added (none is overwritten);
 * the generated AUTH_SECRET is put back when this DATA_DIR has none. The server may keep running:
 * with the embedded database it does the restore itself, then republishes the pages.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { countRows, openArchive, psqlRestore, restoreEmbedded, type BackupManifest } from '#server/db/backup.ts';
import { getDbHandle } from '#server/db/client.ts';
import { env } from '#server/env.ts';
import { dataDir } from '#server/paths.ts';
import { queuePublish } from '#server/publish/publisher.ts';
import { askServer, failure } from './backup-channel';
import { runScript } from './run-script';

async function restoreDatabase(manifest: BackupManifest, unpacked: string, data: string): Promise<Record<string, number>> {
  const url = env().DATABASE_URL;
  if (manifest.kind === 'postgres') {
    if (!url) throw new Error('This backup is of a Postgres database: set DATABASE_URL to the database to restore it into');
    await psqlRestore(url, path.join(unpacked, 'database.sql'));
    // An older backup gets this code's migrations; the running servers publish the restored content.
    const rows = await countRows((await getDbHandle()).db);
    await queuePublish('database restored');
    return rows;
  }
  if (url) throw new Error('This backup is of the embedded database: unset DATABASE_URL to restore it into DATA_DIR');
  const dump = fs.readFileSync(path.join(unpacked, 'database.tar.gz'));
  const answer = await askServer(data, '/restore', dump);
  if (answer) {
    if (answer.status !== 200) throw failure(answer);
    return (JSON.parse(answer.body.toString()) as { rows: Record<string, number> }).rows;
  }
  // No server runs: the next start builds the pages from the restored content.
  return restoreEmbedded(await getDbHandle(), dump);
}

/** Files of the backup missing here are added; names are content-addressed or unique, so an existing file is the same one. */
function restoreFiles(manifest: BackupManifest, unpacked: string, data: string): string[] {
  const notes: string[] = [];
  const e = env();
  if (manifest.uploads) {
    if (e.BLOB_READ_WRITE_TOKEN) notes.push('The uploaded files in the backup were not copied: uploads go to Vercel Blob here.');
    else fs.cpSync(path.join(unpacked, 'uploads'), path.join(data, 'uploads'), { recursive: true, force: false, errorOnExist: false });
  }
  if (manifest.authSecret && !e.AUTH_SECRET) {
    const secret = path.join(data, 'auth-secret');
    const saved = fs.readFileSync(path.join(unpacked, 'auth-secret'), 'utf8');
    if (!fs.existsSync(secret)) fs.writeFileSync(secret, saved, { mode: 0o600 });
    else if (fs.readFileSync(secret, 'utf8').trim() !== saved.trim())
      notes.push(
        `DATA_DIR/auth-secret differs from the backup's: two-factor secrets restored from it cannot be read until ${secret} holds the backup's (stop the server first), or the accounts turn 2FA off and on again.`,
      );
  }
  return notes;
}

runScript(async () => {
  const { positionals } = parseArgs({ allowPositionals: true, options: {} });
  if (!positionals[0]) throw new Error('Usage: npm run db:restore -- FILE   (a file made by npm run db:backup)');
  const data = dataDir(env().DATA_DIR);
  const { dir, manifest } = await openArchive(positionals[0]);
  try {
    const rows = await restoreDatabase(manifest, dir, data);
    const notes = restoreFiles(manifest, dir, data);
    const total = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);
    const differ = Object.keys({ ...rows, ...manifest.rows }).filter((t) => rows[t] !== manifest.rows[t]);
    console.log(`Restored ${positionals[0]} (made ${manifest.createdAt}): ${total(rows)} rows in ${Object.keys(rows).length} tables.`);
    if (differ.length === 0) console.log('Every table has as many rows as when the backup was made.');
    else
      console.log(
        `Row counts that differ from the backup's: ${differ.map((t) => `${t} ${manifest.rows[t] ?? 0} → ${rows[t] ?? 0}`).join(', ')}`,
      );
    for (const note of notes) console.log(note);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
