import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resetEnvCache } from '#server/env.ts';
import { resetStorage } from '#server/storage/storage.ts';
import { startAdminContext } from './helpers/admin';
import { startBlobStandin, type BlobStandin } from './helpers/blob-standin';
import { imageUploadSuite, solid, upload, uploadForm } from './helpers/images';

/*
 * The same image tests with Vercel Blob storage: BLOB_READ_WRITE_TOKEN set and @vercel/blob sent
 * to a local stand-in of the Blob API (VERCEL_BLOB_API_URL). Set before the server starts, since
 * the bundled server reads its environment once.
 */

let blob: BlobStandin;

describe('Vercel Blob storage', () => {
  afterAll(async () => {
    await blob?.close();
    delete process.env.BLOB_READ_WRITE_TOKEN;
    delete process.env.VERCEL_BLOB_API_URL;
    resetEnvCache();
    resetStorage();
  });

  const context = imageUploadSuite({
    driver: 'blob',
    async start() {
      blob = await startBlobStandin();
      process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'images-blob-'));
      process.env.BLOB_READ_WRITE_TOKEN = blob.token;
      process.env.VERCEL_BLOB_API_URL = blob.apiUrl;
      // A failing call fails at once instead of being retried for seconds.
      process.env.VERCEL_BLOB_RETRIES = '0';
      resetEnvCache();
      resetStorage();
      return startAdminContext();
    },
    async fetchStored(_ctx, url) {
      const res = await fetch(url);
      if (res.status === 404) return null;
      if (res.status !== 200) throw new Error(`GET ${url}: ${res.status}`);
      return { bytes: Buffer.from(await res.arrayBuffer()), type: res.headers.get('content-type'), headers: res.headers };
    },
    imagesBase: () => `${blob.publicBase}/images/`,
  });

  it('stores under the server-made pathname, with the content type and a year of caching, and nothing on local disk', async () => {
    const ctx = context();
    const res = await upload(ctx.s, ctx.admin, uploadForm([{ bytes: await solid(600, 40).jpeg().toBuffer(), name: 'b.jpg' }]));
    const { url } = await res.json();
    const pathname = url.slice(blob.publicBase.length + 1);
    expect(pathname).toMatch(/^images\/[a-f0-9]{32}\.jpg$/);
    expect(blob.blobs.get(pathname)).toMatchObject({ contentType: 'image/jpeg', cacheControl: 'public, max-age=31536000' });
    expect(blob.blobs.get(pathname.replace(/\.jpg$/, '-480w.webp'))?.contentType).toBe('image/webp');
    expect(fs.existsSync(path.join(process.env.DATA_DIR!, 'uploads'))).toBe(false);
  });
});
