import { crc32 } from 'node:zlib';
import { and, eq, like } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, contentBlocks, rateLimits, uploads } from '#server/db/schema/index.ts';
import { IMAGE_MESSAGES } from '#shared/schemas/upload.ts';
import type { AdminTestContext } from './admin';
import type { TestServer } from './server';

/* Images made in memory for the upload tests, and the tests both storage drivers must pass. */

const MB5 = 5 * 1024 * 1024;

export function solid(width: number, height: number) {
  return sharp({ create: { width, height, channels: 3, background: '#2a7f62' } });
}

/**
 * A valid PNG of exactly `total` bytes: a private ancillary chunk (`prVt`, which decoders skip)
 * before IEND fills the gap. This is how the 5 MB limit is tested at the byte.
 */
async function pngOfSize(total: number): Promise<Buffer> {
  const png = await solid(32, 32).png().toBuffer();
  const iend = png.subarray(png.length - 12);
  const dataLength = total - png.length - 12;
  const type = Buffer.from('prVt', 'latin1');
  const data = Buffer.alloc(dataLength, 0x61);
  const head = Buffer.alloc(4);
  head.writeUInt32BE(dataLength);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([type, data])));
  return Buffer.concat([png.subarray(0, png.length - 12), head, type, data, crc, iend]);
}

/** A minimal PDF: refused whatever it is called. */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

export const CLEAN_SVG =
  '<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="120" height="60" viewBox="0 0 120 60">' +
  '<defs><linearGradient id="g"><stop offset="0" stop-color="#0a7"/><stop offset="1" stop-color="#07a"/></linearGradient></defs>' +
  '<style>.t{fill:url(#g)}</style><rect class="t" width="120" height="60"/><use xlink:href="#g"/></svg>';

/** A POST /api/upload/image with one file (or none, or several). */
export function uploadForm(files: { bytes: Buffer; name: string; type?: string; field?: string }[]): FormData {
  const form = new FormData();
  for (const f of files)
    form.append(f.field ?? 'image', new File([new Uint8Array(f.bytes)], f.name, { type: f.type ?? 'application/octet-stream' }));
  return form;
}

export interface ImageSuiteOptions {
  driver: 'local' | 'blob';
  /** Starts the server (after the driver's environment is set). */
  start(): Promise<AdminTestContext>;
  /** The stored bytes behind a returned URL, or null when there are none. */
  fetchStored(ctx: AdminTestContext, url: string): Promise<{ bytes: Buffer; type: string | null; headers: Headers } | null>;
  /** The URL prefix of stored images: `/uploads/images/` or the Blob URL of `images/`. */
  imagesBase(): string;
}

export async function upload(s: TestServer, cookie: string | undefined, form: FormData): Promise<Response> {
  return s.request('/api/upload/image', { method: 'POST', body: form, cookie, headers: { origin: s.url } });
}

/**
 * The image upload and delete behaviour every storage driver must give (SPEC 2.16, 5, 7, 8).
 * Returns the running server's context, for further tests in the same describe block.
 */
export function imageUploadSuite(o: ImageSuiteOptions): () => AdminTestContext {
  let ctx: AdminTestContext;
  const post = (form: FormData, cookie: string | undefined = ctx.admin) => upload(ctx.s, cookie, form);
  const del = (filename: unknown, cookie: string | undefined = ctx.admin) =>
    ctx.s.request('/api/upload/image', { method: 'DELETE', cookie, json: { filename } });
  const uploadOk = async (bytes: Buffer, name = 'picture.png', type?: string) => {
    const res = await post(uploadForm([{ bytes, name, type }]));
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    return body as { success: true; url: string; message: string; width: number; height: number };
  };
  const rowOf = async (url: string) => (await ctx.s.db.select().from(uploads).where(eq(uploads.url, url)))[0];
  const filenameOf = (url: string) => url.split('/').pop()!;

  beforeAll(async () => {
    ctx = await o.start();
  });
  afterAll(async () => {
    await ctx?.s.close();
  });
  // Each test starts with a fresh upload allowance (the limit itself is tested last).
  beforeEach(async () => {
    await ctx.s.db.delete(rateLimits).where(like(rateLimits.key, 'image-upload:%'));
  });

  describe(`image uploads (${o.driver} storage)`, () => {
    it('needs an administrator: 401 without a session, 403 for another role, for upload and delete', async () => {
      const form = () => uploadForm([{ bytes: PDF, name: 'x.png' }]);
      expect((await post(form(), '')).status).toBe(401);
      expect((await post(form(), ctx.user)).status).toBe(403);
      expect((await del('0'.repeat(32) + '.png', '')).status).toBe(401);
      expect((await del('0'.repeat(32) + '.png', ctx.user)).status).toBe(403);
    });

    it('reads the type from the bytes: a PNG sent as application/pdf named .pdf is stored as .png', async () => {
      const png = await solid(40, 30).png().toBuffer();
      const body = await uploadOk(png, 'report.pdf', 'application/pdf');
      expect(body).toMatchObject({ success: true, message: IMAGE_MESSAGES.uploaded, width: 40, height: 30 });
      expect(body.url).toBe(`${o.imagesBase()}${filenameOf(body.url)}`);
      expect(filenameOf(body.url)).toMatch(/^[a-f0-9]{32}\.png$/);
      const stored = await o.fetchStored(ctx, body.url);
      expect(stored?.type).toBe('image/png');
      expect((await sharp(stored!.bytes).metadata()).format).toBe('png');
      const row = await rowOf(body.url);
      expect(row).toMatchObject({
        kind: 'image',
        storage: o.driver,
        key: `images/${filenameOf(body.url)}`,
        originalName: 'report.pdf',
        contentType: 'image/png',
        size: stored!.bytes.length,
        width: 40,
        height: 30,
        variantWidths: [],
      });
      expect(row!.uploadedBy).toBeTruthy();
      const audit = await ctx.s.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.entity, 'upload'), eq(auditLog.entityId, String(row!.id))));
      expect(audit.map((a) => a.action)).toEqual(['create']);
    });

    it('uploading the same image again gives the same URL and one row', async () => {
      const png = await solid(41, 31).png().toBuffer();
      const first = await uploadOk(png, 'a.png');
      const second = await uploadOk(png, 'b.png');
      expect(second.url).toBe(first.url);
      const rows = await ctx.s.db.select().from(uploads).where(eq(uploads.url, first.url));
      expect(rows).toHaveLength(1);
      expect(rows[0]!.originalName).toBe('b.png');
    });

    it('refuses what is not an image, whatever its name and type: a PDF named x.png', async () => {
      const res = await post(uploadForm([{ bytes: PDF, name: 'x.png', type: 'image/png' }]));
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ success: false, message: IMAGE_MESSAGES.invalidType });
    });

    it('refuses a damaged image with 400, not 500', async () => {
      const png = await solid(50, 50).png().toBuffer();
      const broken = Buffer.concat([png.subarray(0, 40), Buffer.alloc(200, 7)]);
      const res = await post(uploadForm([{ bytes: broken, name: 'broken.png' }]));
      expect(res.status).toBe(400);
      expect((await res.json()).success).toBe(false);
    });

    it('takes one file in the field image: none or two are refused', async () => {
      const png = await solid(10, 10).png().toBuffer();
      expect((await post(uploadForm([{ bytes: png, name: 'a.png', field: 'file' }]))).status).toBe(400);
      const two = await post(
        uploadForm([
          { bytes: png, name: 'a.png' },
          { bytes: png, name: 'b.png' },
        ]),
      );
      expect(two.status).toBe(400);
      expect((await two.json()).success).toBe(false);
    });

    it('accepts exactly 5MB and refuses one byte more with 413', async () => {
      const atLimit = await pngOfSize(MB5);
      expect(atLimit.length).toBe(MB5);
      expect((await sharp(atLimit).metadata()).width).toBe(32);
      await uploadOk(atLimit, 'exact.png');

      const over = await pngOfSize(MB5 + 1);
      const res = await post(uploadForm([{ bytes: over, name: 'over.png' }]));
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({ success: false, message: IMAGE_MESSAGES.tooLarge });
    });

    it('refuses a body past the 6 MB request cap with the same message', async () => {
      const res = await post(uploadForm([{ bytes: Buffer.alloc(6.5 * 1024 * 1024, 1), name: 'huge.png' }]));
      expect(res.status).toBe(413);
      expect((await res.json()).message).toBe(IMAGE_MESSAGES.tooLarge);
    });

    it('stops a chunked body (no Content-Length) at the cap with the same message', async () => {
      const form = uploadForm([{ bytes: Buffer.alloc(6.5 * 1024 * 1024, 1), name: 'huge.png' }]);
      const encoded = new Response(form);
      const res = await ctx.s.request('/api/upload/image', {
        method: 'POST',
        cookie: ctx.admin,
        headers: { origin: ctx.s.url, 'content-type': encoded.headers.get('content-type')! },
        body: encoded.body,
        duplex: 'half',
      } as RequestInit);
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({ success: false, message: IMAGE_MESSAGES.tooLarge });
    });

    it('drops EXIF and GPS from a JPEG and turns it upright', async () => {
      const jpeg = await solid(300, 200)
        .jpeg()
        .withExif({
          IFD0: { Copyright: 'secret owner' },
          IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 24/1', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 3/1' },
        })
        .withMetadata({ orientation: 6 })
        .toBuffer();
      // The GPSInfo pointer (tag 0x8825), in either byte order.
      const gpsTag = (exif: Buffer) => exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88]));
      const before = await sharp(jpeg).metadata();
      expect(before.exif?.length).toBeGreaterThan(0);
      expect(before.exif!.includes(Buffer.from('secret owner'))).toBe(true);
      expect(before.orientation).toBe(6);
      expect(gpsTag(before.exif!)).toBe(true);

      const body = await uploadOk(jpeg, 'holiday.jpg', 'image/jpeg');
      expect(body.url).toMatch(/\.jpg$/);
      // Orientation 6 is a quarter turn: the stored image is upright, 200 wide and 300 high.
      expect([body.width, body.height]).toEqual([200, 300]);
      const stored = await o.fetchStored(ctx, body.url);
      const after = await sharp(stored!.bytes).metadata();
      expect(after.format).toBe('jpeg');
      expect(after.exif).toBeUndefined();
      expect(after.xmp).toBeUndefined();
      expect(after.orientation).toBeUndefined();
      expect(stored!.bytes.includes(Buffer.from('secret owner'))).toBe(false);
    });

    it('makes WebP variants narrower than the original, named <name>-<w>w.webp', async () => {
      const body = await uploadOk(await solid(1500, 500).jpeg().toBuffer(), 'wide.jpg');
      const row = await rowOf(body.url);
      expect(row!.variantWidths).toEqual([480, 960, 1440]);
      for (const w of [480, 960, 1440]) {
        const variant = await o.fetchStored(ctx, body.url.replace(/\.jpg$/, `-${w}w.webp`));
        expect(variant?.type).toBe('image/webp');
        const meta = await sharp(variant!.bytes).metadata();
        expect([meta.format, meta.width]).toEqual(['webp', w]);
      }
      expect(await o.fetchStored(ctx, body.url.replace(/\.jpg$/, '-1920w.webp'))).toBeNull();

      const big = await uploadOk(await solid(2400, 100).png().toBuffer(), 'big.png');
      expect((await rowOf(big.url))!.variantWidths).toEqual([480, 960, 1440, 1920]);
    });

    it('keeps the frames of an animated GIF and makes no variants', async () => {
      const frames = await Promise.all(
        ['#f00', '#00f'].map((c) =>
          sharp({ create: { width: 600, height: 20, channels: 3, background: c } })
            .png()
            .toBuffer(),
        ),
      );
      const gif = await sharp(frames, { join: { animated: true } })
        .gif()
        .toBuffer();
      expect((await sharp(gif).metadata()).pages).toBe(2);
      const body = await uploadOk(gif, 'anim.gif');
      expect(body.url).toMatch(/\.gif$/);
      expect([body.width, body.height]).toEqual([600, 20]);
      expect((await rowOf(body.url))!.variantWidths).toEqual([]);
      const stored = await o.fetchStored(ctx, body.url);
      expect((await sharp(stored!.bytes).metadata()).pages).toBe(2);
    });

    it('never stores a GIF that is also a script as sent', async () => {
      const gif = await solid(2, 2).gif().toBuffer();
      // `GIF89a/*…*/=alert(1);`: the logical screen width is the bytes `/*`, the script follows the trailer.
      const polyglot = Buffer.concat([Buffer.from('GIF89a/*', 'latin1'), gif.subarray(8), Buffer.from('*/=alert(1);', 'latin1')]);
      const res = await post(uploadForm([{ bytes: polyglot, name: 'x.gif' }]));
      expect([200, 400]).toContain(res.status);
      if (res.status === 200) {
        const { url } = await res.json();
        const stored = await o.fetchStored(ctx, url);
        expect(stored!.bytes.includes(Buffer.from('alert(1)'))).toBe(false);
        expect(stored!.bytes.subarray(0, 8).toString('latin1')).not.toBe('GIF89a/*');
      }
    });

    it('stores a clean SVG as sent, with no variants', async () => {
      const body = await uploadOk(Buffer.from(CLEAN_SVG), 'logo.svg', 'image/svg+xml');
      expect(body.url).toMatch(/^.*\/images\/[a-f0-9]{32}\.svg$/);
      expect([body.width, body.height]).toEqual([120, 60]);
      const stored = await o.fetchStored(ctx, body.url);
      expect(stored!.bytes.toString('utf8')).toBe(CLEAN_SVG);
      expect(stored!.type).toMatch(/^image\/svg\+xml/);
      if (o.driver === 'local') {
        expect(stored!.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
      }
      expect((await rowOf(body.url))!.variantWidths).toEqual([]);
    });

    it.each([
      ['a script', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'],
      [
        'a namespaced script',
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:s="http://www.w3.org/2000/svg"><s:script>alert(1)</s:script></svg>',
      ],
      ['an onload handler', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="1" height="1"/></svg>'],
      ['an event handler on a child', '<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1" onclick = "alert(1)"/></svg>'],
      ['an external href', '<svg xmlns="http://www.w3.org/2000/svg"><image href="https://evil.example/x.png" width="1" height="1"/></svg>'],
      [
        'an external xlink:href',
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><use xlink:href="other.svg#a"/></svg>',
      ],
      [
        'a javascript: link',
        '<svg xmlns="http://www.w3.org/2000/svg"><a href="javascript:alert(1)"><rect width="1" height="1"/></a></svg>',
      ],
      [
        'an encoded javascript: link',
        '<svg xmlns="http://www.w3.org/2000/svg"><a href="&#106;ava&#x09;script:alert(1)"><rect width="1" height="1"/></a></svg>',
      ],
      [
        'a data: URL',
        '<svg xmlns="http://www.w3.org/2000/svg"><image href="data:image/svg+xml;base64,PHN2Zy8+" width="1" height="1"/></svg>',
      ],
      [
        'an external url()',
        '<svg xmlns="http://www.w3.org/2000/svg"><rect style="fill:url(https://evil.example/p)" width="1" height="1"/></svg>',
      ],
      ['an @import', '<svg xmlns="http://www.w3.org/2000/svg"><style>@import "https://evil.example/s.css";</style></svg>'],
      [
        'a foreignObject',
        '<svg xmlns="http://www.w3.org/2000/svg"><foreignObject width="9" height="9"><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject></svg>',
      ],
      [
        'a DOCTYPE with an entity',
        '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x "boom">]><svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>',
      ],
      ['an animated href', '<svg xmlns="http://www.w3.org/2000/svg"><a><set attributeName="href" to="https://evil.example"/></a></svg>'],
      ['a stylesheet instruction', '<?xml-stylesheet href="https://evil.example/s.css"?><svg xmlns="http://www.w3.org/2000/svg"/>'],
    ])('refuses an SVG with %s', async (_what, svg) => {
      const res = await post(uploadForm([{ bytes: Buffer.from(svg), name: 'logo.svg', type: 'image/svg+xml' }]));
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(body.success).toBe(false);
      expect(body.message).toMatch(/SVG/);
    });

    it('never uses the client file name as a path: traversal in the multipart file name', async () => {
      const png = await solid(12, 12).png().toBuffer();
      const body = await uploadOk(png, '../../../etc/cron.d/evil.png');
      expect(body.url).toBe(`${o.imagesBase()}${filenameOf(body.url)}`);
      expect(filenameOf(body.url)).toMatch(/^[a-f0-9]{32}\.png$/);
      expect((await rowOf(body.url))!.originalName).toBe('evil.png');
      const windows = await uploadOk(await solid(13, 12).png().toBuffer(), '..\\..\\win.ini.png');
      expect((await rowOf(windows.url))!.originalName).toBe('win.ini.png');
    });

    it('DELETE takes only a name the server made', async () => {
      for (const filename of [
        '../x.png',
        'a.png',
        '..%2f..%2fpackage.json',
        `${'a'.repeat(32)}.exe`,
        `${'A'.repeat(32)}.png`,
        'images/' + 'a'.repeat(32) + '.png',
        42,
        '',
      ]) {
        const res = await del(filename);
        expect(res.status, String(filename)).toBe(400);
        expect((await res.json()).success).toBe(false);
      }
      const unknown = await del(`${'0'.repeat(32)}.png`);
      expect(unknown.status).toBe(404);
      expect((await unknown.json()).message).toBeTruthy();
    });

    it('DELETE removes the image, its variants and its row', async () => {
      const body = await uploadOk(await solid(1000, 400).jpeg().toBuffer(), 'gone.jpg');
      const variant = body.url.replace(/\.jpg$/, '-480w.webp');
      expect(await o.fetchStored(ctx, variant)).not.toBeNull();
      const row = await rowOf(body.url);
      const res = await del(filenameOf(body.url));
      expect(res.status).toBe(200);
      expect((await res.json()).success).toBe(true);
      expect(await rowOf(body.url)).toBeUndefined();
      expect(await o.fetchStored(ctx, body.url)).toBeNull();
      expect(await o.fetchStored(ctx, variant)).toBeNull();
      expect(await o.fetchStored(ctx, body.url.replace(/\.jpg$/, '-960w.webp'))).toBeNull();
      const audit = await ctx.s.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.entity, 'upload'), eq(auditLog.entityId, String(row!.id)), eq(auditLog.action, 'delete')));
      expect(audit).toHaveLength(1);
      expect((await del(filenameOf(body.url))).status).toBe(404);
    });

    it('DELETE keeps an image still used by stored content', async () => {
      const body = await uploadOk(await solid(700, 300).png().toBuffer(), 'used.png');
      const [block] = await ctx.s.db
        .insert(contentBlocks)
        .values({ section: 'about', title: 'About', content: 'Text', isActive: false, imageUrl: body.url })
        .returning();
      const res = await del(filenameOf(body.url));
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ success: true, message: 'Image kept: it is still used on the site' });
      expect(await rowOf(body.url)).toBeDefined();
      expect(await o.fetchStored(ctx, body.url)).not.toBeNull();
      // A variant in a text counts as a use as well.
      await ctx.s.db
        .update(contentBlocks)
        .set({ imageUrl: null, content: `<img src="${body.url.replace(/\.png$/, '-480w.webp')}">` })
        .where(eq(contentBlocks.id, block!.id));
      expect(await (await del(filenameOf(body.url))).json()).toMatchObject({ message: 'Image kept: it is still used on the site' });
      await ctx.s.db.delete(contentBlocks).where(eq(contentBlocks.id, block!.id));
      expect((await del(filenameOf(body.url))).status).toBe(200);
      expect(await rowOf(body.url)).toBeUndefined();
    });

    it('limits uploads per administrator with 429', async () => {
      await post(uploadForm([{ bytes: await solid(10, 10).png().toBuffer(), name: 'a.png' }]));
      const [limit] = await ctx.s.db.select().from(rateLimits).where(like(rateLimits.key, 'image-upload:%'));
      expect(limit!.count).toBe(1);
      await ctx.s.db.update(rateLimits).set({ count: 60 }).where(eq(rateLimits.key, limit!.key));
      const res = await post(uploadForm([{ bytes: await solid(10, 10).png().toBuffer(), name: 'a.png' }]));
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBeTruthy();
      expect((await res.json()).success).toBe(false);
      await ctx.s.db.delete(rateLimits).where(eq(rateLimits.key, limit!.key));
    });
  });
  return () => ctx;
}
