import { env } from '../env';
import type { FileStorage } from './file-storage';
import { createLocalStorage } from './local-disk';

/*
 * The configured storage: local disk (local-disk.ts) or Vercel Blob (vercel-blob.ts). Both
 * drivers implement the contract of file-storage.ts and import nothing from here.
 *
 * One storage per process, kept on globalThis: the HTTP layer and the bundled server (dist/server)
 * each carry a copy of this module, and tests reset both at once.
 */
const SLOT = Symbol.for('procurement.storage');
const slot = globalThis as unknown as Record<symbol, FileStorage | undefined>;

/** The configured storage (chosen once per process). */
export async function storage(): Promise<FileStorage> {
  if (!slot[SLOT]) {
    const token = env().BLOB_READ_WRITE_TOKEN;
    slot[SLOT] = token ? (await import('./vercel-blob')).createBlobStorage(token) : createLocalStorage();
  }
  return slot[SLOT];
}

/** Tests switch drivers between files. */
export function resetStorage(): void {
  slot[SLOT] = undefined;
}
