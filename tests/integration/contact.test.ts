import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { contactSubmissions, rateLimits } from '#server/db/schema/index.ts';
import { startTestServer, type TestServer } from './helpers/server';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());
beforeEach(async () => {
  await s.db.delete(rateLimits);
});

const valid = {
  name: 'Jane Buyer',
  email: 'jane@agency.gov',
  company: 'VA',
  phone: '+1 (555) 010-0100',
  message: 'We need 40 laptops by June.',
};
/** A person takes longer than the minimum fill time. */
const human = { elapsedMs: 12_000, website: '' };

const post = (body: unknown) => s.request('/api/contact', { method: 'POST', json: body });
const count = async () => (await s.db.select({ id: contactSubmissions.id }).from(contactSubmissions)).length;
const latest = async () => (await s.db.select().from(contactSubmissions).orderBy(desc(contactSubmissions.id)).limit(1))[0]!;

describe('[API][CONTACT] POST /api/contact stores a submission', () => {
  it('answers 201 with the new id and stores it as pending, trimmed, not spam', async () => {
    const res = await post({ ...valid, name: '  Jane Buyer  ', ...human });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toMatchObject({ id: expect.any(Number), status: 'pending' });
    const [row] = await s.db.select().from(contactSubmissions).where(eq(contactSubmissions.id, body.id));
    expect(row).toMatchObject({
      name: 'Jane Buyer',
      email: 'jane@agency.gov',
      company: 'VA',
      phone: '+1 (555) 010-0100',
      message: valid.message,
      status: 'pending',
      isSpam: false,
      spamReason: null,
    });
    expect(row!.ipAddress).toBeTruthy();
  });

  it('[SECURITY] drops the characters that would show a name or message reversed or hidden in the inbox; keeps line breaks', async () => {
    const res = await post({
      ...valid,
      name: 'Eve \u202Eevil\u202C Buyer',
      company: 'V\u200BA',
      message: 'Line one\u2066 isolated\u2069.\nLine two\u0007 rings.',
      ...human,
    });
    expect(res.status).toBe(201);
    const [row] = await s.db
      .select()
      .from(contactSubmissions)
      .where(eq(contactSubmissions.id, (await res.json()).id));
    expect(row).toMatchObject({ name: 'Eve evil Buyer', company: 'VA', message: 'Line one isolated.\nLine two rings.' });
  });

  it('accepts the spec body alone (no spam signals) and stores optional fields as null', async () => {
    const res = await post({ name: 'Al', email: 'al@example.com', message: '0123456789' });
    expect(res.status).toBe(201);
    expect(await latest()).toMatchObject({ name: 'Al', company: null, phone: null, isSpam: false });
  });
});

describe('[API][CONTACT] validation: nothing is stored on rejection', () => {
  it.each([
    ['name too short', { name: 'J' }, 'Name must be at least 2 characters'],
    ['name blank after trimming', { name: '   ' }, 'Name must be at least 2 characters'],
    ['name missing', { name: undefined }, 'Name must be at least 2 characters'],
    ['email invalid', { email: 'jane@' }, 'Please enter a valid email address'],
    ['email missing', { email: undefined }, 'Please enter a valid email address'],
    ['message too short', { message: 'too short' }, 'Message must be at least 10 characters'],
    ['message not a string', { message: 42 }, 'Message must be text'],
    ['name not a string', { name: ['Jane'] }, 'Name must be text'],
    ['company not a string', { company: 5 }, 'Company must be text'],
    ['phone not a string', { phone: {} }, 'Phone number must be text'],
    ['a NUL character', { name: 'Ja\u0000ne' }, 'Text must not contain NUL characters'],
    ['honeypot oversize', { website: 'w'.repeat(2001) }, 'Website must be at most 2000 characters'],
    ['fill time not a number', { elapsedMs: 'slow' }, 'elapsedMs must be a number'],
    ['name oversize', { name: 'x'.repeat(201) }, 'Name must be at most 200 characters'],
    ['email oversize', { email: `${'a'.repeat(250)}@b.co` }, 'Email must be at most 254 characters'],
    ['company oversize', { company: 'c'.repeat(201) }, 'Company must be at most 200 characters'],
    ['phone oversize', { phone: '5'.repeat(51) }, 'Phone number must be at most 50 characters'],
    ['message oversize', { message: 'm'.repeat(5001) }, 'Message must be at most 5000 characters'],
  ])('%s → 400 with the form message', async (_label, patch, message) => {
    const before = await count();
    const res = await post({ ...valid, ...human, ...patch });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe(message);
    expect(await count()).toBe(before);
  });

  it('refuses a body that is not JSON (415) and a malformed one (400)', async () => {
    const before = await count();
    const form = await s.request('/api/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: s.url },
      body: 'name=Jane',
    });
    expect(form.status).toBe(415);
    const broken = await s.request('/api/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: s.url },
      body: '{"name":',
    });
    expect(broken.status).toBe(400);
    expect(await count()).toBe(before);
  });

  it.each([null, [], 'x', 5])('refuses a JSON body that is not an object (%j) with 400', async (body) => {
    const before = await count();
    const res = await s.request('/api/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: s.url },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe('Request body must be a JSON object');
    expect(await count()).toBe(before);
  });

  it('refuses a NUL character anywhere in a JSON body, as sign-in does (never a 500)', async () => {
    const login = await s.request('/api/login', { method: 'POST', json: { username: 'adm\u0000in', password: 'whatever-password' } });
    expect(login.status).toBe(400);
    expect((await login.json()).message).toBe('Text must not contain NUL characters');
    const nested = await post({ ...valid, ...human, extra: { deep: ['a\u0000'] } });
    expect(nested.status).toBe(400);
  });

  it('refuses a body over 1 MB with 413', async () => {
    const res = await post({ ...valid, message: 'm'.repeat(1024 * 1024 + 10) });
    expect(res.status).toBe(413);
  });

  it('refuses a cross-site post', async () => {
    const before = await count();
    const res = await s.request('/api/contact', { method: 'POST', json: valid, headers: { origin: 'https://evil.example' } });
    expect(res.status).toBe(403);
    expect(await count()).toBe(before);
  });

  it('answers 405 to other methods', async () => {
    const res = await s.request('/api/contact');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });
});

describe('[API][CONTACT] spam is kept and flagged, and the answer does not tell', () => {
  it('a filled honeypot marks the submission as spam', async () => {
    const res = await post({ ...valid, ...human, website: 'http://spam.example' });
    expect(res.status).toBe(201);
    expect(await res.json()).not.toHaveProperty('isSpam');
    expect(await latest()).toMatchObject({ isSpam: true, spamReason: 'honeypot', status: 'pending' });
  });

  it('a form sent faster than a person can type is spam', async () => {
    const res = await post({ ...valid, elapsedMs: 400, website: '' });
    expect(res.status).toBe(201);
    expect(await latest()).toMatchObject({ isSpam: true, spamReason: 'too fast' });
  });

  it('a form open long enough is not', async () => {
    await post({ ...valid, elapsedMs: 2500, website: '' });
    expect(await latest()).toMatchObject({ isSpam: false });
  });
});

describe('[API][CONTACT] many messages from one address are not refused', () => {
  it('ten submissions in a few seconds from one address are all stored (one agency, many buyers)', async () => {
    const before = await count();
    for (let i = 0; i < 10; i++) expect((await post({ ...valid, ...human })).status).toBe(201);
    expect(await count()).toBe(before + 10);
  });

  it('invalid submissions do not use up the allowance', async () => {
    for (let i = 0; i < 8; i++) expect((await post({ ...valid, name: '' })).status).toBe(400);
    expect(await s.db.select().from(rateLimits)).toHaveLength(0);
    expect((await post({ ...valid, ...human })).status).toBe(201);
  });
});
