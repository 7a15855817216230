import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import vm from 'node:vm';
import v8 from 'node:v8';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, documents, uploads } from '#server/db/schema/index.ts';
import { uploadsDir } from '#server/storage/local-disk.ts';
import { startAdminContext, type AdminTestContext } from './helpers/admin';
import { bundleApi, resetEnvCache } from '../helpers/bundle';

const { isServableDocument, resetStorage, servableUpload } = bundleApi;

let t: AdminTestContext;
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'documents-'));
  process.env.DATA_DIR = dataDir;
  delete process.env.BLOB_READ_WRITE_TOKEN;
  resetEnvCache();
  resetStorage();
  t = await startAdminContext({ uploads: { root: uploadsDir(), guard: servableUpload } });
}, 180_000);
afterAll(async () => {
  await t?.s.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const MB = 1024 * 1024;
const LIMIT = 50 * MB;
const TOO_LARGE = 'File size must be less than 50MB';
const NOT_PDF = 'Please upload a PDF file';
const NO_FILE = 'No file uploaded - Please upload a file before creating the document.';

const PDF = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1');
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
async function fileHash(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest('hex');
}
const onDisk = (url: string) => path.join(uploadsDir(), url.replace(/^\/uploads\//, ''));
const documentFiles = () =>
  fs.existsSync(path.join(uploadsDir(), 'documents')) ? fs.readdirSync(path.join(uploadsDir(), 'documents')) : [];

async function newSlot(cookie = t.admin): Promise<{ uploadURL: string; expiresAt: string }> {
  const res = await t.as(cookie, 'POST', '/api/documents/upload', {});
  expect(res.status).toBe(200);
  return res.json();
}

interface PutOptions {
  cookie?: string;
  /** Sent as Content-Length; without it the body goes chunked. */
  contentLength?: number;
  /** Send no body at all: only the headers (for an up-front refusal). */
  headersOnly?: boolean;
}

/** A raw PUT through node:http, so the body can stream from a generator with backpressure. */
function put(
  target: string,
  body: Buffer | (() => AsyncGenerator<Buffer>),
  opts: PutOptions = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const url = new URL(t.s.url);
  const cookie = opts.cookie === undefined ? t.admin : opts.cookie;
  const headers: Record<string, string | number> = { 'content-type': 'application/pdf' };
  if (cookie) headers.cookie = cookie;
  if (Buffer.isBuffer(body)) headers['content-length'] = body.length;
  if (opts.contentLength !== undefined) headers['content-length'] = opts.contentLength;
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method: 'PUT', path: target, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : {} });
      });
    });
    // Writing after an early answer may fail with EPIPE/ECONNRESET: the answer is what counts.
    req.on('error', (err) => setTimeout(() => reject(err), 200));
    if (opts.headersOnly) req.flushHeaders();
    else if (Buffer.isBuffer(body)) req.end(body);
    else pipeline(Readable.from(body(), { objectMode: false }), req).catch(() => {});
  });
}

/** `size` bytes: `%PDF-` then filler, yielded from one reused 64 KB buffer (nothing accumulates). */
function lazyPdf(size: number, onChunk?: (chunk: Buffer) => void): () => AsyncGenerator<Buffer> {
  return async function* () {
    const first = Buffer.alloc(64 * 1024, 0x20);
    PDF.copy(first);
    const filler = Buffer.alloc(64 * 1024, 0x41);
    for (let sent = 0; sent < size;) {
      const src = sent === 0 ? first : filler;
      const chunk = src.subarray(0, Math.min(src.length, size - sent));
      onChunk?.(chunk);
      sent += chunk.length;
      yield chunk;
    }
  };
}

async function uploadPdf(content: Buffer = PDF): Promise<string> {
  const { uploadURL } = await newSlot();
  const res = await put(uploadURL, content);
  expect(res.status).toBe(200);
  return res.body.url as string;
}

const meta = { title: 'Capability Statement', description: 'Our capabilities', category: 'capability', isActive: true, displayOrder: 1 };

async function createDocument(fields: Record<string, unknown> = {}) {
  const url = await uploadPdf();
  const res = await t.as(t.admin, 'POST', '/api/documents', { ...meta, filePath: url, fileName: 'statement.pdf', ...fields });
  expect(res.status).toBe(201);
  return res.json();
}

const uploadRow = async (uploadURL: string) => {
  const rows = await t.s.db.select().from(uploads).where(eq(uploads.kind, 'document'));
  const token = uploadURL.split('/').pop()!;
  const hash = createHash('sha256').update(token).digest('hex');
  return rows.find((r) => r.uploadTokenHash === hash);
};

describe('[API][DOCUMENTS] access', () => {
  it.each([
    ['POST', '/api/documents/upload', {}],
    ['POST', '/api/documents', { ...meta, filePath: '/uploads/documents/x.pdf' }],
    ['PUT', '/api/documents/1', { title: 'x' }],
    ['DELETE', '/api/documents/1', undefined],
  ])('%s %s: 401 signed out, 403 for a user account, nothing changes', async (method, target, body) => {
    const before = [await t.s.db.select().from(documents), await t.s.db.select().from(uploads)];
    expect((await t.s.request(target, { method, ...(body ? { json: body } : {}) })).status).toBe(401);
    expect((await t.as(t.user, method, target, body)).status).toBe(403);
    expect([await t.s.db.select().from(documents), await t.s.db.select().from(uploads)]).toEqual(before);
  });

  it('PUT {uploadURL}: 401 signed out, 403 for a user account; the link stays usable for its admin', async () => {
    const { uploadURL } = await newSlot();
    expect(await put(uploadURL, PDF, { cookie: '' })).toMatchObject({ status: 401 });
    expect(await put(uploadURL, PDF, { cookie: t.user })).toMatchObject({ status: 403 });
    expect((await uploadRow(uploadURL))?.completedAt).toBeNull();
    expect(await put(uploadURL, PDF)).toMatchObject({ status: 200 });
  });

  it('PUT {uploadURL} from another site is refused (403)', async () => {
    const { uploadURL } = await newSlot();
    const res = await t.s.request(uploadURL, { method: 'PUT', cookie: t.admin, body: PDF, headers: { origin: 'https://evil.example' } });
    expect(res.status).toBe(403);
    expect((await uploadRow(uploadURL))?.expiresAt).not.toBeNull();
  });

  it('other methods on an upload URL answer 405', async () => {
    const { uploadURL } = await newSlot();
    const res = await t.as(t.admin, 'POST', uploadURL, {});
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('PUT');
  });
});

describe('[API][DOCUMENTS] upload', () => {
  it('POST /api/documents/upload: a single-use URL valid for 15 minutes, stored as a hash', async () => {
    const before = Date.now();
    const { uploadURL, expiresAt } = await newSlot();
    expect(uploadURL).toMatch(/^\/api\/documents\/upload\/[A-Za-z0-9_-]{43}$/);
    const ms = new Date(expiresAt).getTime() - before;
    expect(ms).toBeGreaterThan(14 * 60_000);
    expect(ms).toBeLessThanOrEqual(15 * 60_000 + 5_000);
    const row = await uploadRow(uploadURL);
    expect(row).toMatchObject({ kind: 'document', storage: 'local', completedAt: null });
    expect(row!.key).toMatch(/^documents\/[0-9a-f]{32}\.pdf$/);
    expect(row!.uploadTokenHash).not.toContain(uploadURL.split('/').pop());
    const admin = (await (await t.as(t.admin, 'GET', '/api/user')).json()).user;
    expect(row!.uploadedBy).toBe(admin.id);
  });

  it('a PDF is stored byte for byte; the answer is { success, url, fileSize }', async () => {
    const { uploadURL } = await newSlot();
    const res = await put(uploadURL, PDF);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, fileSize: PDF.length });
    const url = res.body.url as string;
    expect(url).toMatch(/^\/uploads\/documents\/[0-9a-f]{32}\.pdf$/);
    expect(await fileHash(onDisk(url))).toBe(sha256(PDF));
    const row = await uploadRow(uploadURL);
    expect(row).toMatchObject({ url, size: PDF.length, contentType: 'application/pdf' });
    expect(row!.completedAt).toBeInstanceOf(Date);
  });

  it('a PNG named .pdf is refused by its bytes (415); nothing is stored and the link is used up', async () => {
    const files = documentFiles();
    const { uploadURL } = await newSlot();
    const res = await put(uploadURL, PNG);
    expect(res).toMatchObject({ status: 415, body: { message: NOT_PDF } });
    expect(documentFiles()).toEqual(files);
    expect((await put(uploadURL, PDF)).status).toBe(409);
  });

  it('a body shorter than the PDF signature, or empty, is refused (415)', async () => {
    for (const body of [Buffer.from('%PD'), Buffer.alloc(0)]) {
      const { uploadURL } = await newSlot();
      expect(await put(uploadURL, body)).toMatchObject({ status: 415, body: { message: NOT_PDF } });
    }
  });

  it('the signature is checked across chunks', async () => {
    const { uploadURL } = await newSlot();
    const res = await put(uploadURL, async function* () {
      yield Buffer.from('%P');
      await new Promise((r) => setTimeout(r, 20));
      yield Buffer.from('DF');
      await new Promise((r) => setTimeout(r, 20));
      yield PDF.subarray(4);
    });
    expect(res.status).toBe(200);
    expect(await fileHash(onDisk(res.body.url as string))).toBe(sha256(PDF));
  });

  it('an expired link answers 410', async () => {
    const { uploadURL } = await newSlot();
    const row = await uploadRow(uploadURL);
    await t.s.db
      .update(uploads)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(uploads.id, row!.id));
    expect((await put(uploadURL, PDF)).status).toBe(410);
  });

  it('a link used once answers 409 the second time', async () => {
    const { uploadURL } = await newSlot();
    expect((await put(uploadURL, PDF)).status).toBe(200);
    expect(await put(uploadURL, PDF)).toMatchObject({ status: 409 });
  });

  it('two concurrent PUTs to one link: exactly one succeeds', async () => {
    const { uploadURL } = await newSlot();
    const results = await Promise.all([put(uploadURL, lazyPdf(2 * MB)), put(uploadURL, lazyPdf(2 * MB))]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  it('an upload the client breaks off leaves no file, and its link is used up', async () => {
    const files = documentFiles();
    const added = () => documentFiles().filter((f) => !files.includes(f));
    const { uploadURL } = await newSlot();
    const url = new URL(t.s.url);
    const req = http.request({
      host: url.hostname,
      port: url.port,
      method: 'PUT',
      path: uploadURL,
      headers: { cookie: t.admin, 'content-length': 10 * MB },
    });
    req.on('error', () => {});
    req.write(PDF);
    req.write(Buffer.alloc(MB, 0x41));
    // The partial file exists while the bytes arrive…
    await expect.poll(added, { timeout: 5_000 }).toHaveLength(1);
    req.destroy();
    // …and is gone once the client has left.
    await expect.poll(added, { timeout: 5_000 }).toEqual([]);
    expect((await put(uploadURL, PDF)).status).toBe(409);
  });

  it('unknown tokens and traversal in the token segment answer 404', async () => {
    const { uploadURL } = await newSlot();
    const token = uploadURL.split('/').pop()!;
    for (const target of [
      '/api/documents/upload/' + 'A'.repeat(43),
      '/api/documents/upload/..%2F..%2Fetc%2Fpasswd',
      '/api/documents/upload/../../../etc/passwd',
      `/api/documents/upload/${token}/..`,
      `/api/documents/upload/${token}/x`,
      '/api/documents/upload/',
    ]) {
      expect((await put(target, PDF)).status, target).toBe(404);
    }
    expect((await put(uploadURL, PDF)).status).toBe(200);
  });

  it('another administrator cannot use the link (404)', async () => {
    const { makeUser } = await import('./helpers/auth');
    const { signIn } = await import('./helpers/server');
    const other = await makeUser(t.s, 'otheradmin', 'other-admin-pw-1', 'admin');
    const cookie = await signIn(t.s, other.username, other.password);
    const { uploadURL } = await newSlot();
    expect((await put(uploadURL, PDF, { cookie })).status).toBe(404);
    expect((await put(uploadURL, PDF)).status).toBe(200);
  });

  it('a new upload request sweeps expired, never-completed uploads and their partial files', async () => {
    const { uploadURL } = await newSlot();
    const row = (await uploadRow(uploadURL))!;
    const partial = path.join(uploadsDir(), row.key);
    fs.mkdirSync(path.dirname(partial), { recursive: true });
    fs.writeFileSync(partial, '%PDF-partial');
    await t.s.db
      .update(uploads)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(uploads.id, row.id));
    await newSlot();
    expect(await t.s.db.select().from(uploads).where(eq(uploads.id, row.id))).toEqual([]);
    expect(fs.existsSync(partial)).toBe(false);
  });
});

describe('[API][DOCUMENTS] limits', () => {
  it('memory stays flat while 50 MB streams in', async () => {
    // node:http hands every body chunk over in a fresh buffer, which stays counted until V8 next
    // collects garbage (with no collection, 25 to 30 MB of such garbage was seen here). A
    // young-generation collection before each sample leaves what the process actually holds.
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as (opts?: { type: 'minor' | 'major' }) => void;
    // One small upload first: what the first request loads is not the upload's memory.
    await uploadPdf();
    const { uploadURL } = await newSlot();
    gc();
    const sample = () => {
      gc({ type: 'minor' });
      const m = process.memoryUsage();
      return { buffers: m.arrayBuffers + m.external, rss: m.rss };
    };
    const base = sample();
    const peak = { buffers: 0, rss: 0 };
    const timer = setInterval(() => {
      const now = sample();
      peak.buffers = Math.max(peak.buffers, now.buffers - base.buffers);
      peak.rss = Math.max(peak.rss, now.rss - base.rss);
    }, 20);
    try {
      const res = await put(uploadURL, lazyPdf(LIMIT), { contentLength: LIMIT });
      expect(res.status).toBe(200);
    } finally {
      clearInterval(timer);
    }
    console.info(`50 MB upload: peak growth ${(peak.buffers / MB).toFixed(1)} MB buffers, ${(peak.rss / MB).toFixed(1)} MB rss`);
    // `external` includes `arrayBuffers`, so this sum counts every buffer twice: 32 MB here is
    // 16 MB of buffers; the file held whole would show 100 MB.
    expect(peak.buffers).toBeLessThan(32 * MB);
    expect(peak.rss).toBeLessThan(32 * MB);
  });

  it('exactly 50 MB is accepted, streamed, and stored byte for byte', async () => {
    const { uploadURL } = await newSlot();
    const sent = createHash('sha256');
    const res = await put(
      uploadURL,
      lazyPdf(LIMIT, (c) => sent.update(c)),
      { contentLength: LIMIT },
    );
    expect(res).toMatchObject({ status: 200, body: { fileSize: LIMIT } });
    expect(await fileHash(onDisk(res.body.url as string))).toBe(sent.digest('hex'));
  });

  it('50 MB + 1 byte sent chunked is counted and refused (413); nothing is stored', async () => {
    const files = documentFiles();
    const { uploadURL } = await newSlot();
    const res = await put(uploadURL, lazyPdf(LIMIT + 1));
    expect(res).toMatchObject({ status: 413, body: { message: TOO_LARGE } });
    expect(documentFiles()).toEqual(files);
    expect((await uploadRow(uploadURL))?.completedAt).toBeNull();
  });

  it('a Content-Length over 50 MB is refused up front, before any byte is read; the link stays usable', async () => {
    const { uploadURL } = await newSlot();
    const started = Date.now();
    const res = await put(uploadURL, PDF, { contentLength: LIMIT + 1, headersOnly: true });
    expect(res).toMatchObject({ status: 413, body: { message: TOO_LARGE } });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await put(uploadURL, PDF)).status).toBe(200);
  });
});

describe('[API][DOCUMENTS] records', () => {
  it('creating without an uploaded file → 400 with the spec message', async () => {
    for (const filePath of [undefined, '', '/uploads/documents/0123456789abcdef0123456789abcdef.pdf', 'https://example.com/x.pdf']) {
      const res = await t.as(t.admin, 'POST', '/api/documents', { ...meta, filePath, fileName: 'x.pdf' });
      expect(res.status, String(filePath)).toBe(400);
      expect((await res.json()).message).toBe(NO_FILE);
    }
  });

  it('an upload that has not completed, or is already attached, cannot be used', async () => {
    const { uploadURL } = await newSlot();
    const row = (await uploadRow(uploadURL))!;
    const pending = await t.as(t.admin, 'POST', '/api/documents', { ...meta, filePath: `/uploads/${row.key}` });
    expect(pending.status).toBe(400);
    const doc = await createDocument();
    const again = await t.as(t.admin, 'POST', '/api/documents', { ...meta, filePath: doc.filePath });
    expect(again.status).toBe(400);
    expect((await again.json()).message).toBe(NO_FILE);
  });

  it('the file size and type come from the upload; the file name is cleaned', async () => {
    const url = await uploadPdf();
    const res = await t.as(t.admin, 'POST', '/api/documents', {
      ...meta,
      filePath: url,
      fileName: '../../etc/pass\u0007wd',
      fileSize: 1,
      fileType: 'text/html',
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ filePath: url, fileName: 'passwd.pdf', fileSize: PDF.length, fileType: 'application/pdf' });
    const windows = await createDocument({ fileName: 'C:\\Users\\me\\Q3 Brochure.PDF' });
    expect(windows.fileName).toBe('Q3 Brochure.pdf');
    const none = await createDocument({ fileName: undefined, title: 'Onboarding Kit' });
    expect(none.fileName).toBe('Onboarding Kit.pdf');
  });

  it('validation: title and category required, displayOrder ≥ 0, non-numeric order becomes 0', async () => {
    const url = await uploadPdf();
    const cases: [Record<string, unknown>, string][] = [
      [{ title: '' }, 'Title is required'],
      [{ category: undefined }, 'Category is required'],
      [{ category: 'poster' }, 'Category is required'],
      [{ displayOrder: -1 }, 'Display order must be a whole number of 0 or more'],
      [{ title: 'x'.repeat(201) }, 'Must be at most 200 characters'],
    ];
    for (const [patch, message] of cases) {
      const res = await t.as(t.admin, 'POST', '/api/documents', { ...meta, filePath: url, ...patch });
      expect(res.status, message).toBe(400);
      expect((await res.json()).message).toBe(message);
    }
    const res = await t.as(t.admin, 'POST', '/api/documents', { ...meta, filePath: url, displayOrder: 'abc', isActive: undefined });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ displayOrder: 0, isActive: true, description: 'Our capabilities' });
  });

  it('create, update, delete round trip: visitors see active documents only, admins all; files served only while active', async () => {
    const doc = await createDocument({ title: 'Round Trip', displayOrder: 3 });
    expect(doc).toMatchObject({ title: 'Round Trip', category: 'capability', isActive: true, displayOrder: 3, version: 1 });
    const key = doc.filePath.replace(/^\/uploads\//, '');
    const ids = async (cookie?: string) =>
      ((await (await t.s.request('/api/documents', cookie ? { cookie } : {})).json()) as { id: number }[]).map((d) => d.id);

    expect(await ids()).toContain(doc.id);
    expect(await isServableDocument(key)).toBe(true);
    // Served at its URL while active, revalidated by caches (it can be deactivated).
    const served = await t.s.request(`/uploads/${key}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('application/pdf');
    expect(served.headers.get('cache-control')).toBe('no-cache');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    await served.arrayBuffer();

    const off = await t.as(t.admin, 'PUT', `/api/documents/${doc.id}`, { ...meta, title: 'Round Trip 2', isActive: false, version: 1 });
    expect(off.status).toBe(200);
    expect(await off.json()).toMatchObject({ title: 'Round Trip 2', isActive: false, version: 2, filePath: doc.filePath });
    expect(await ids()).not.toContain(doc.id);
    expect(await ids(t.admin)).toContain(doc.id);
    expect(await isServableDocument(key)).toBe(false);
    expect((await t.s.request(`/uploads/${key}`)).status).toBe(404);

    const stale = await t.as(t.admin, 'PUT', `/api/documents/${doc.id}`, { title: 'Lost', version: 1 });
    expect(stale.status).toBe(409);
    // Metadata only: a file path in the body is refused, naming it, and nothing changes.
    const moved = await t.as(t.admin, 'PUT', `/api/documents/${doc.id}`, { isActive: true, filePath: '/elsewhere.pdf' });
    expect(moved.status).toBe(400);
    expect(await moved.json()).toEqual({ message: 'Unknown field: filePath' });
    expect(await ids()).not.toContain(doc.id);
    const on = await t.as(t.admin, 'PUT', `/api/documents/${doc.id}`, { isActive: true });
    expect(await on.json()).toMatchObject({ isActive: true, title: 'Round Trip 2', filePath: doc.filePath });
    expect(await isServableDocument(key)).toBe(true);

    expect((await t.as(t.admin, 'DELETE', `/api/documents/${doc.id}`)).status).toBe(200);
    expect(await ids(t.admin)).not.toContain(doc.id);
    expect(await isServableDocument(key)).toBe(false);
    expect(fs.existsSync(onDisk(doc.filePath))).toBe(false);
    expect(await t.s.db.select().from(uploads).where(eq(uploads.key, key))).toEqual([]);
    expect((await t.as(t.admin, 'DELETE', `/api/documents/${doc.id}`)).status).toBe(404);
    expect((await t.as(t.admin, 'PUT', `/api/documents/${doc.id}`, { title: 'x' })).status).toBe(404);

    const audit = await t.s.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'document'), eq(auditLog.entityId, String(doc.id))));
    expect(audit.map((a) => a.action).sort()).toEqual(['create', 'delete', 'update', 'update']);
  });

  it('isServableDocument: only keys of an active document', async () => {
    const { uploadURL } = await newSlot();
    const loose = await put(uploadURL, PDF);
    expect(await isServableDocument((loose.body.url as string).replace(/^\/uploads\//, ''))).toBe(false);
    expect(await isServableDocument('documents/0123456789abcdef0123456789abcdef.pdf')).toBe(false);
    expect(await isServableDocument('images/x.png')).toBe(false);
  });

  it('the public capability document is the active one with its file', async () => {
    const doc = await createDocument({ category: 'onboarding', displayOrder: 0 });
    const res = await (await t.s.request('/api/documents/public/onboarding')).json();
    expect(res).toMatchObject({ filePath: doc.filePath });
  });
});
