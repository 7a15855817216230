import { env } from '../env';
import type { FileStorage } from './file-storage';
import { createLocalStorage } from './local-disk';

/*
 * The configured storage: local disk (local-disk.ts) or Vercel Blob (vercel-blob.ts). Both
 * drivers implement the contract of file-storage.ts and import nothing from here.
 */
let configured: FileStorage | undefined;

/** The configured storage (chosen once per process). */
export async function storage(): Promise<FileStorage> {
  if (!configured) {
    const token = env().BLOB_READ_WRITE_TOKEN;
    configured = token ? (await import('./vercel-blob')).createBlobStorage(token) : createLocalStorage();
  }
  return configured;
}

/** Tests switch drivers between files. */
export function resetStorage(): void {
  configured = undefined;
}
