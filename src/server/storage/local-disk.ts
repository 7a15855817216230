import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { env } from '../env';
import { dataDir } from '../paths';
import { assertKey, byteLimit, type FileStorage } from './file-storage';

/** The directory of local uploads: DATA_DIR/uploads, outside every release directory. */
export function uploadsDir(): string {
  return path.join(dataDir(env().DATA_DIR), 'uploads');
}

export function createLocalStorage(root = uploadsDir()): FileStorage {
  return {
    driver: 'local',
    async put(key, body: Readable, { maxBytes }) {
      assertKey(key);
      const target = path.join(root, key);
      await fs.promises.mkdir(path.dirname(target), { recursive: true });
      // Written beside the target, then renamed: a reader never sees half a file.
      const temp = `${target}.${randomBytes(6).toString('hex')}.part`;
      const out = fs.createWriteStream(temp, { flags: 'wx' });
      try {
        if (maxBytes === undefined) await pipeline(body, out);
        else await pipeline(body, byteLimit(maxBytes), out);
        const { size } = await fs.promises.stat(temp);
        await fs.promises.rename(temp, target);
        return { key, url: `/uploads/${key}`, size };
      } catch (err) {
        // A refusal can come before the file is even open: removed before the stream has opened
        // it, the file would appear afterwards and stay. So the stream is closed first.
        if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
        await fs.promises.rm(temp, { force: true });
        throw err;
      }
    },
    async delete(key) {
      assertKey(key);
      await fs.promises.rm(path.join(root, key), { force: true });
    },
  };
}
