import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HttpError, errorResponse, parseId, readJson } from '#server/http.ts';

describe('parseId', () => {
  it.each(['1', '42', '2147483647'])('accepts %s', (v) => expect(parseId(v)).toBe(Number(v)));
  it.each(['0', '-1', 'abc', '1.5', '01', '2147483648', '', undefined, '1e3'])('refuses %s with 400', (v) => {
    expect(() => parseId(v as string)).toThrowError(HttpError);
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
    const orig = console.error;
    console.error = () => {};
    const c = errorResponse(new Error('boom'), '/x');
    console.error = orig;
    expect(c.status).toBe(500);
    expect(await c.json()).toEqual({ message: 'Internal server error' });
  });
});
