import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { HttpError, errorResponse, parseId, readJson } from '#server/http.ts';

describe('parseId', () => {
  it.each(['1', '42', '2147483647'])('accepts %s', (v) => expect(parseId(v)).toBe(Number(v)));
  it.each(['0', '-1', 'abc', '1.5', '01', '2147483648', '', undefined, '1e3'])('refuses %s with 400', (v) => {
    expect(() => parseId(v as string)).toThrow(HttpError);
    try {
      parseId(v as string);
    } catch (e) {
      expect((e as HttpError).status).toBe(400);
    }
  });
});

describe('readJson', () => {
  const req = (body: string, type = 'application/json') =>
    new Request('http://x/', { method: 'POST', body, headers: { 'content-type': type } });
  it('parses JSON', async () => expect(await readJson(req('{"a":1}'))).toEqual({ a: 1 }));
  it('refuses other content types with 415', async () => {
    await expect(readJson(req('a=1', 'application/x-www-form-urlencoded'))).rejects.toMatchObject({ status: 415 });
  });
  it('refuses malformed JSON with 400', async () => {
    await expect(readJson(req('{'))).rejects.toMatchObject({ status: 400 });
  });
  it('refuses bodies over 1 MB with 413', async () => {
    await expect(readJson(req(`"${'x'.repeat(1024 * 1024 + 1)}"`))).rejects.toMatchObject({ status: 413 });
  });
});

describe('errorResponse', () => {
  it('maps HttpError, ZodError and unknown errors to { message }', async () => {
    const a = errorResponse(new HttpError(409, 'Stale'), '/x');
    expect(a.status).toBe(409);
    expect(await a.json()).toEqual({ message: 'Stale' });
    const parsed = z.object({ name: z.string().min(2, 'Name must be at least 2 characters') }).safeParse({ name: 'a' });
    const b = errorResponse(parsed.error, '/x');
    expect(b.status).toBe(400);
    expect((await b.json()).message).toBe('Name must be at least 2 characters');
    const quiet = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const c = errorResponse(new Error('boom'), '/x');
    quiet.mockRestore();
    expect(c.status).toBe(500);
    expect(await c.json()).toEqual({ message: 'Internal server error' });
  });
});

describe('[SECURITY] odd JSON bodies', () => {
  const req = (body: string) => new Request('http://x/', { method: 'POST', body, headers: { 'content-type': 'application/json' } });
  const status = (p: Promise<unknown>) =>
    p.then(
      () => 200,
      (e: unknown) => (e instanceof HttpError ? e.status : 500),
    );

  it('a body nested 100,000 levels deep is a 400, not a stack overflow', async () => {
    expect(await status(readJson(req(`{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`)))).toBe(400);
    expect(await status(readJson(req(`${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`)))).toBe(400);
  });

  it('a form-shaped body still passes', async () => {
    expect(await readJson(req('{"tags":["a","b"],"nested":{"x":[1,{"y":"z"}]}}'))).toEqual({
      tags: ['a', 'b'],
      nested: { x: [1, { y: 'z' }] },
    });
  });
});

describe('[SECURITY] database outages and logs', () => {
  it('a database that cannot be reached answers 503 with Retry-After, within 3 s', async () => {
    const { default: postgres } = await import('postgres');
    const sql = postgres('postgres://nobody@127.0.0.1:1/none', { connect_timeout: 2, max: 1, onnotice: () => {} });
    const started = Date.now();
    const err = await sql`select 1`.then(
      () => undefined,
      (e: unknown) => e,
    );
    await sql.end({ timeout: 0 });
    const res = errorResponse(err, '/api/contact');
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(res.status).toBe(503);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('a failed query is logged without its parameters, which may be a visitor’s personal data', () => {
    const lines: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((line: string | Uint8Array) => {
      lines.push(String(line));
      return true;
    });
    try {
      const err = new Error(
        'Failed query: insert into "contact_submission" ("name", "email") values ($1, $2)\nparams: Jane Roe,jane@example.com',
      );
      expect(errorResponse(err, '/api/contact').status).toBe(500);
    } finally {
      spy.mockRestore();
    }
    const logged = lines.join('\n');
    expect(logged).toContain('insert into');
    expect(logged).not.toContain('jane@example.com');
    expect(logged).not.toContain('Jane Roe');
  });
});
