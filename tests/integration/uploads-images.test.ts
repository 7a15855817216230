import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppServer } from '#server/web/app-server.ts';
import { and, eq, like } from 'drizzle-orm';
import { auditLog, companyProfile, contentBlocks, headerContent, services, uploads } from '#server/db/schema/index.ts';
import type { LibraryImage } from '#shared/responses.ts';
import { startAdminContext, type AdminTestContext } from './helpers/admin';
import { CLEAN_SVG, imageUploadSuite, solid, upload, uploadForm } from './helpers/images';
import { bundleApi, resetEnvCache } from '../helpers/bundle';

const { resetStorage } = bundleApi;

/* POST and DELETE /api/upload/image on local disk (DATA_DIR/uploads), and serving /uploads/. */

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'images-local-'));
const root = path.join(dataDir, 'uploads');

describe('local storage', () => {
  const context = imageUploadSuite({
    driver: 'local',
    async start() {
      process.env.DATA_DIR = dataDir;
      delete process.env.BLOB_READ_WRITE_TOKEN;
      resetEnvCache();
      resetStorage();
      return startAdminContext({ uploads: { root } });
    },
    async fetchStored(ctx, url) {
      const res = await ctx.s.request(url);
      if (res.status === 404) return null;
      if (res.status !== 200) throw new Error(`GET ${url}: ${res.status}`);
      return { bytes: Buffer.from(await res.arrayBuffer()), type: res.headers.get('content-type'), headers: res.headers };
    },
    imagesBase: () => '/uploads/images/',
  });

  it('[SECURITY][IMAGES] processes uploads one image at a time: three sent at once never overlap in sharp', async () => {
    const ctx = context();
    // 2-megapixel JPEGs: each keeps sharp busy long enough (decode, encode, variants) that
    // uploads processed side by side would overlap on the thread pool.
    const images = await Promise.all(
      ['#2a7f62', '#7f2a62', '#627f2a'].map((background) =>
        sharp({ create: { width: 1600, height: 1200, channels: 3, background } })
          .jpeg()
          .toBuffer(),
      ),
    );
    // sharp's own count of the images it is working on at this moment (its tasks on libuv's pool).
    let most = 0;
    const sampler = setInterval(() => (most = Math.max(most, sharp.counters().process)), 1);
    const answers = await Promise.all(images.map((bytes, i) => upload(ctx.s, ctx.admin, uploadForm([{ bytes, name: `grain-${i}.jpg` }]))));
    clearInterval(sampler);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    // 1, not 0: the sampler did see the work, one image at a time.
    expect(most).toBe(1);
  });
});

describe('the media library: GET /api/admin/images and DELETE /api/admin/images/:id', () => {
  let ctx: AdminTestContext;
  const list = async (query = '') => {
    const res = await ctx.as(ctx.admin, 'GET', `/api/admin/images${query}`);
    expect(res.status).toBe(200);
    return (await res.json()) as { images: LibraryImage[]; total: number; page: number; pageSize: number };
  };
  const uploaded = async (bytes: Buffer, name: string) => {
    const res = await upload(ctx.s, ctx.admin, uploadForm([{ bytes, name }]));
    expect(res.status).toBe(200);
    return ((await res.json()) as { url: string }).url;
  };
  const idOf = async (url: string) => (await ctx.s.db.select().from(uploads).where(eq(uploads.url, url)))[0]!.id;

  beforeAll(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'images-library-'));
    process.env.DATA_DIR = dir;
    delete process.env.BLOB_READ_WRITE_TOKEN;
    resetEnvCache();
    resetStorage();
    ctx = await startAdminContext({ uploads: { root: path.join(dir, 'uploads') } });
  });
  afterAll(async () => {
    await ctx?.s.close();
  });

  it('lists uploads newest first with size, dimensions, a small thumbnail and where each is used; searches by file name', async () => {
    expect((await list()).total).toBe(0);
    const truck = await uploaded(await solid(800, 600).png().toBuffer(), 'Harbor truck.png');
    const team = await uploaded(await solid(300, 200).jpeg().toBuffer(), 'team (2024).jpg');
    const logo = await uploaded(Buffer.from(CLEAN_SVG), 'logo.svg');
    const all = await list();
    expect(all.total).toBe(3);
    expect(all.images.map((i) => i.name)).toEqual(['logo.svg', 'team (2024).jpg', 'Harbor truck.png']);
    const first = all.images[2]!;
    expect(first).toMatchObject({ url: truck, width: 800, height: 600, usedIn: [] });
    expect(first.size).toBeGreaterThan(0);
    // The smallest WebP variant is the thumbnail; an image with none is its own.
    expect(first.thumbnailUrl).toBe(truck.replace(/\.png$/, '-480w.webp'));
    expect((await ctx.s.request(first.thumbnailUrl)).headers.get('content-type')).toBe('image/webp');
    expect(all.images[0]!.thumbnailUrl).toBe(logo);

    // Words of the name, case-insensitive; % and _ are plain characters, not patterns.
    expect((await list('?q=TRUCK')).images.map((i) => i.url)).toEqual([truck]);
    expect((await list('?q=(2024')).images.map((i) => i.url)).toEqual([team]);
    expect((await list('?q=%25')).total).toBe(0);
    expect((await list('?q=_')).total).toBe(0);
    expect(await list('?q=truck&page=2')).toMatchObject({ images: [], total: 1, page: 2 });
    // One upload by its address: a picker shows its original name, not the stored hash.
    expect((await list(`?url=${encodeURIComponent(truck)}`)).images.map((i) => [i.url, i.name])).toEqual([[truck, 'Harbor truck.png']]);
    expect((await list(`?url=${encodeURIComponent('https://example.com/truck.png')}`)).total).toBe(0);

    // Where each is used: live content, an earlier version of a block, a variant inside a text.
    const [service] = await ctx.s.db.select().from(services).orderBy(services.id).limit(1);
    await ctx.s.db
      .update(services)
      .set({ detailedDescription: `Trucks: ![A truck](${truck.replace(/\.png$/, '-960w.webp')})` })
      .where(eq(services.id, service!.id));
    await ctx.s.db.update(companyProfile).set({ founderPhoto: team });
    await ctx.s.db.insert(contentBlocks).values({ section: 'about', title: 'Old', content: 'Text', isActive: false, imageUrl: truck });
    const used = new Map((await list()).images.map((i) => [i.url, i.usedIn]));
    expect(used.get(truck)).toEqual([`Service “${service!.title}”`, 'About page (an earlier version)']);
    expect(used.get(team)).toEqual(['Leadership photo (About page)']);
    expect(used.get(logo)).toEqual([]);

    // 24 a page, newest first; the page after the last is empty, with the total.
    const key = (i: number) => `images/${i.toString(16).padStart(32, '0')}.png`;
    await ctx.s.db.insert(uploads).values(
      Array.from({ length: 24 }, (_, i) => ({
        kind: 'image' as const,
        storage: 'local',
        key: key(i + 1),
        url: `/uploads/${key(i + 1)}`,
        originalName: `scan-${String(i + 1).padStart(2, '0')}.png`,
        createdAt: new Date(Date.now() + (i + 1) * 1000),
      })),
    );
    const pageOne = await list();
    expect(pageOne).toMatchObject({ total: 27, page: 1, pageSize: 24 });
    expect(pageOne.images.map((i) => i.name).slice(0, 2)).toEqual(['scan-24.png', 'scan-23.png']);
    expect((await list('?page=2')).images.map((i) => i.url)).toEqual([logo, team, truck]);
    expect(await list('?page=3')).toMatchObject({ images: [], total: 27, page: 3 });
    await ctx.s.db.delete(uploads).where(like(uploads.originalName, 'scan-%'));
  });

  it('[SECURITY] refuses bad queries with 400 and a message, and needs an administrator', async () => {
    for (const query of ['?page=0', '?page=abc', '?page=1.5', `?q=${'x'.repeat(201)}`, `?url=${'x'.repeat(2049)}`]) {
      const res = await ctx.as(ctx.admin, 'GET', `/api/admin/images${query}`);
      expect(res.status, query).toBe(400);
      expect(((await res.json()) as { message: string }).message, query).toMatch(
        /Page must be a whole number from 1|Search must be at most 200 characters|URL must be at most 2048 characters/,
      );
    }
    expect((await ctx.as('', 'GET', '/api/admin/images')).status).toBe(401);
    expect((await ctx.as(ctx.user, 'GET', '/api/admin/images')).status).toBe(403);
    expect((await ctx.as('', 'DELETE', '/api/admin/images/1')).status).toBe(401);
    expect((await ctx.as(ctx.user, 'DELETE', '/api/admin/images/1')).status).toBe(403);
    expect((await ctx.as(ctx.admin, 'DELETE', '/api/admin/images/abc')).status).toBe(400);
    expect((await ctx.as(ctx.admin, 'DELETE', '/api/admin/images/999999')).status).toBe(404);
  });

  it('refuses to delete an image in use, naming where; deletes an unused one with its variants and an audit record', async () => {
    const { images } = await list();
    const truck = images.find((i) => i.name === 'Harbor truck.png')!;
    const team = images.find((i) => i.name === 'team (2024).jpg')!;
    const logo = images.find((i) => i.name === 'logo.svg')!;

    const refused = await ctx.as(ctx.admin, 'DELETE', `/api/admin/images/${truck.id}`);
    expect(refused.status).toBe(409);
    const [service] = await ctx.s.db.select().from(services).orderBy(services.id).limit(1);
    expect(((await refused.json()) as { message: string }).message).toBe(
      `This image is still used: Service “${service!.title}”; About page (an earlier version). Choose another image there first.`,
    );
    expect((await ctx.s.request(truck.url)).status).toBe(200);
    expect((await ctx.s.request(truck.thumbnailUrl)).status).toBe(200);
    // The founder's photo counts as a use for the picker's own delete too: it is kept.
    const kept = await ctx.as(ctx.admin, 'DELETE', '/api/upload/image', { filename: team.url.split('/').pop() });
    expect(await kept.json()).toMatchObject({ message: 'Image kept: it is still used on the site' });
    expect((await ctx.as(ctx.admin, 'DELETE', `/api/admin/images/${team.id}`)).status).toBe(409);

    const deleted = await ctx.as(ctx.admin, 'DELETE', `/api/admin/images/${logo.id}`);
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ success: true, message: 'Image deleted' });
    expect((await ctx.s.request(logo.url)).status).toBe(404);
    const audit = await ctx.s.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'upload'), eq(auditLog.entityId, String(logo.id))));
    expect(audit.map((a) => a.action)).toContain('delete');

    // Once nothing uses it, the truck goes too, variants and all.
    await ctx.s.db.delete(contentBlocks).where(eq(contentBlocks.imageUrl, truck.url));
    await ctx.s.db.update(services).set({ detailedDescription: 'No picture' }).where(eq(services.id, service!.id));
    expect((await ctx.as(ctx.admin, 'DELETE', `/api/admin/images/${await idOf(truck.url)}`)).status).toBe(200);
    expect((await ctx.s.request(truck.thumbnailUrl)).status).toBe(404);
    expect((await list()).images.map((i) => i.name)).toEqual(['team (2024).jpg']);
  });

  it('[SECURITY][RELIABILITY] setting the logo and deleting the same image at once, 20 times: never both, never a logo without its file', async () => {
    const header = async () => (await ctx.s.db.select().from(headerContent).where(eq(headerContent.isActive, true)))[0]!;
    const outcomes = { saved: 0, deleted: 0 };
    for (let i = 0; i < 20; i++) {
      const png = await sharp({ create: { width: 60, height: 20, channels: 3, background: { r: 10 * i, g: 90, b: 140 } } })
        .png()
        .toBuffer();
      const url = await uploaded(png, `logo ${i}.png`);
      const id = await idOf(url);
      const { id: headerId, version } = await header();
      // Half the deletes from the media library, half from the image picker.
      const [save, remove] = await Promise.all([
        ctx.as(ctx.admin, 'PATCH', `/api/content/header/${headerId}`, { logoLight: url, version }),
        i % 2 === 0
          ? ctx.as(ctx.admin, 'DELETE', `/api/admin/images/${id}`)
          : ctx.as(ctx.admin, 'DELETE', '/api/upload/image', { filename: url.split('/').pop() }),
      ]);
      const removeBody = (await remove.json()) as { message: string };
      const deleted = remove.status === 200 && removeBody.message === 'Image deleted';
      const saveBody = (await save.json()) as { message?: string };
      expect([save.status, deleted], `race ${i}: ${saveBody.message ?? ''} / ${removeBody.message}`).not.toEqual([200, true]);
      if (save.status === 200) {
        outcomes.saved++;
        expect(remove.status === 409 || removeBody.message === 'Image kept: it is still used on the site', `race ${i}`).toBe(true);
      } else {
        outcomes.deleted++;
        expect(save.status).toBe(409);
        expect(saveBody.message).toBe('An image chosen here was deleted from the library meanwhile. Choose it again or pick another.');
        expect(deleted).toBe(true);
      }
      // Whatever won, the live logo is the new image or the one before, and an upload it names is there, listed in the library.
      const logo = (await header()).logoLight;
      expect(logo === url || !logo.includes(url), `race ${i}: ${logo}`).toBe(true);
      if (logo.startsWith('/uploads/')) {
        expect((await ctx.s.request(logo)).status, `race ${i}: ${logo}`).toBe(200);
        expect((await ctx.s.db.select().from(uploads).where(eq(uploads.url, logo))).length).toBe(1);
      }
    }
    console.log(`use/delete races: ${outcomes.saved} saves won, ${outcomes.deleted} deletes won`);
  });
});

/** A request with the target exactly as written (fetch would resolve `..` and re-encode). */
function raw(base: string, target: string, method = 'GET', headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const { hostname, port } = new URL(base);
    const req = http.request({ hostname, port, path: target, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('[SECURITY] GET /uploads/<key>', () => {
  const serveRoot = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'uploads-serve-')), 'uploads');
  const SECRET = 'outside-the-uploads-directory';
  const png = `images/${'a'.repeat(32)}.png`;
  let pngBytes: Buffer;
  let base: string;
  let server: http.Server;

  beforeAll(async () => {
    pngBytes = await solid(20, 10).png().toBuffer();
    fs.mkdirSync(path.join(serveRoot, 'images'), { recursive: true });
    fs.mkdirSync(path.join(serveRoot, 'documents'), { recursive: true });
    fs.writeFileSync(path.join(serveRoot, png), pngBytes);
    fs.writeFileSync(path.join(serveRoot, 'images', `${'b'.repeat(32)}.svg`), CLEAN_SVG);
    fs.writeFileSync(path.join(serveRoot, 'documents', 'open.pdf'), '%PDF-1.4 open');
    fs.writeFileSync(path.join(serveRoot, 'documents', 'hidden.pdf'), '%PDF-1.4 hidden');
    fs.writeFileSync(path.join(serveRoot, '..', 'outside.txt'), SECRET);
    fs.writeFileSync(path.join(serveRoot, 'images', 'notes.txt'), SECRET);
    server = createAppServer({
      // Anything that is not an upload: Astro's not-found.
      astro: async (_req, _res, next) => next?.(),
      site: () => new Map(),
      uploads: { root: serveRoot, guard: async (key) => key !== 'documents/hidden.pdf' },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('streams the file with its type, a year of immutable caching, an ETag and its length', async () => {
    const res = await raw(base, `/uploads/${png}`);
    expect(res.status).toBe(200);
    expect(res.body.equals(pngBytes)).toBe(true);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-length']).toBe(String(pngBytes.length));
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers.etag).toMatch(/^W\/"[0-9a-f]+-[0-9a-f]+"$/);

    const head = await raw(base, `/uploads/${png}`, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(String(pngBytes.length));
    expect(head.headers.etag).toBe(res.headers.etag);

    const again = await raw(base, `/uploads/${png}`, 'GET', { 'if-none-match': res.headers.etag! });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(res.headers.etag);
    expect((await raw(base, `/uploads/${png}`, 'GET', { 'if-none-match': '"other"' })).status).toBe(200);
  });

  it('answers a range of the file, and 416 to a range past its end', async () => {
    const part = await raw(base, `/uploads/${png}`, 'GET', { range: 'bytes=0-7' });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-7/${pngBytes.length}`);
    expect(part.body.equals(pngBytes.subarray(0, 8))).toBe(true);
    const past = await raw(base, `/uploads/${png}`, 'GET', { range: `bytes=${pngBytes.length}-` });
    expect(past.status).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${pngBytes.length}`);
  });

  it('serves an SVG sandboxed and a PDF inline', async () => {
    const svg = await raw(base, `/uploads/images/${'b'.repeat(32)}.svg`);
    expect(svg.status).toBe(200);
    expect(svg.headers['content-type']).toBe('image/svg+xml');
    expect(svg.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
    const pdf = await raw(base, '/uploads/documents/open.pdf');
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe('inline');
  });

  it('answers 404 for a key the guard refuses, a missing file or a type the server never makes', async () => {
    expect((await raw(base, '/uploads/documents/hidden.pdf')).status).toBe(404);
    expect((await raw(base, '/uploads/documents/hidden.pdf', 'HEAD')).status).toBe(404);
    expect((await raw(base, `/uploads/images/${'c'.repeat(32)}.png`)).status).toBe(404);
    const txt = await raw(base, '/uploads/images/notes.txt');
    expect(txt.status).toBe(404);
    expect(txt.body.toString()).not.toContain(SECRET);
  });

  it.each([
    '/uploads/../outside.txt',
    '/uploads/images/../../outside.txt',
    '/uploads/%2e%2e/outside.txt',
    '/uploads/images/%2e%2e%2f%2e%2e%2foutside.txt',
    '/uploads/images/..%2f..%2foutside.txt',
    '/uploads/%2E%2E%2Foutside.txt',
    '/uploads/images\\..\\..\\outside.txt',
    '/uploads/..%5coutside.txt',
    '/uploads/images/%00../../outside.txt',
    `/uploads/images/${'a'.repeat(32)}.png%00.txt`,
    '/uploads//outside.txt',
    '/uploads/images/./../../outside.txt',
    '/uploads/images%2f..%2f..%2foutside.txt',
  ])('never serves a file outside the uploads directory: %s', async (target) => {
    const res = await raw(base, target);
    expect([400, 404]).toContain(res.status);
    expect(res.body.toString()).not.toContain(SECRET);
  });

  it('allows only GET and HEAD', async () => {
    const res = await raw(base, `/uploads/${png}`, 'DELETE');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(fs.existsSync(path.join(serveRoot, png))).toBe(true);
  });
});
