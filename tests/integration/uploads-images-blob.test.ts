import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { TooLargeError } from '#server/storage/file-storage.ts';
import { createBlobStorage } from '#server/storage/vercel-blob.ts';
import { startAdminContext } from './helpers/admin';
import { startBlobStandin, type BlobStandin } from './helpers/blob-standin';
import { imageUploadSuite, solid, upload, uploadForm } from './helpers/images';
import { bundleApi, resetEnvCache } from '../helpers/bundle';

const { resetStorage } = bundleApi;

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

  it('the driver streams a body, stops one past maxBytes without storing it, and deletes', async () => {
    const store = createBlobStorage(blob.token);
    const chunks = () => Readable.from([Buffer.alloc(1000, 1), Buffer.alloc(1000, 2)]);
    await expect(store.put('documents/big.pdf', chunks(), { contentType: 'application/pdf', maxBytes: 1500 })).rejects.toBeInstanceOf(
      TooLargeError,
    );
    expect(blob.blobs.has('documents/big.pdf')).toBe(false);

    const stored = await store.put('documents/fits.pdf', chunks(), { contentType: 'application/pdf', maxBytes: 2000 });
    expect(stored).toEqual({ key: 'documents/fits.pdf', url: `${blob.publicBase}/documents/fits.pdf`, size: 2000 });
    expect(blob.blobs.get('documents/fits.pdf')?.body.length).toBe(2000);
    await store.delete('documents/fits.pdf');
    expect(blob.blobs.has('documents/fits.pdf')).toBe(false);
    // A wrong token is refused by the API, and the driver says so.
    await expect(
      createBlobStorage('vercel_blob_rw_standinstore_wrong').put('images/x.png', chunks(), { contentType: 'image/png' }),
    ).rejects.toThrow();
  });
});
