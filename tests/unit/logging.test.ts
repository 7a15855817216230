import fs from 'node:fs';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { log } from '#server/log.ts';
import { createAppServer, type AstroHandler } from '#server/web/app-server.ts';
import { loadStaticSite, precompress } from '#server/publish/release-files.ts';
import type { StaticMap } from '#server/web/static-site.ts';

/** The JSON lines written to stdout and stderr while `work` runs. */
async function captured(work: () => Promise<unknown> | unknown): Promise<Record<string, unknown>[]> {
  const lines: string[] = [];
  const grab = (chunk: string | Uint8Array) => {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    return true;
  };
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(grab);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(grab);
  try {
    await work();
    await new Promise((r) => setTimeout(r, 50));
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
  return lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('[OPS][LOGS] one JSON line per event', () => {
  it('writes time, level, message and fields as one JSON object per line', async () => {
    const [line] = await captured(() => log.info('published', { release: 'r1', ms: 12 }));
    expect(line).toMatchObject({ level: 'info', msg: 'published', release: 'r1', ms: 12 });
    expect(new Date(line!.time as string).toISOString()).toBe(line!.time);
  });

  it('redacts secrets, session material and visitors’ personal data by field name, at any depth', async () => {
    const [line] = await captured(() =>
      log.warn('odd', {
        password: 'hunter2',
        token: 'abc',
        cookie: 'ps.session_token=x',
        visitor: { email: 'jane@agency.gov', phone: '555-0100' },
        headers: { authorization: 'Bearer y' },
        submissionId: 7,
      }),
    );
    const text = JSON.stringify(line);
    for (const secret of ['hunter2', 'abc', 'session_token', 'jane@agency.gov', '555-0100', 'Bearer']) expect(text).not.toContain(secret);
    expect(line).toMatchObject({ level: 'warn', submissionId: 7, password: '[redacted]', visitor: { email: '[redacted]' } });
  });

  it('an error keeps its type, message and stack, without a failed query’s parameters', async () => {
    const err = new Error('insert failed\nparams: Jane Buyer,jane@agency.gov');
    const [line] = await captured(() => log.error('unhandled error', { err }));
    expect(line).toMatchObject({ level: 'error', err: { type: 'Error' } });
    expect(JSON.stringify(line)).not.toContain('jane@agency.gov');
    expect((line!.err as { error: string }).error).toContain('params: [redacted]');
  });
});

describe('[OPS][LOGS] request lines and the access log', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'access-'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><p>home</p>');
  let map: StaticMap;
  const astro: AstroHandler = async (req, res) => {
    res.setHeader('content-type', 'application/json');
    res.statusCode = req.url?.startsWith('/api/fail') ? 500 : 200;
    res.end('{}');
  };
  const servers: http.Server[] = [];
  async function start(opts: { accessLog?: boolean; trustProxy?: boolean }): Promise<string> {
    const server = createAppServer({ astro, site: () => map, ...opts });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
  beforeAll(async () => {
    await precompress(dir);
    map = await loadStaticSite(dir);
  });
  afterEach(async () => {
    for (const s of servers.splice(0)) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('every API request gets an id (in the answer and the line) and one line with status and duration, without its query string', async () => {
    const base = await start({});
    let answer: Response | undefined;
    const lines = await captured(async () => {
      answer = await fetch(`${base}/api/things?email=jane@agency.gov`);
      await answer.text();
    });
    const id = answer!.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    const line = lines.find((l) => l.msg === 'request');
    expect(line).toMatchObject({ level: 'info', id, method: 'GET', path: '/api/things', status: 200 });
    expect(typeof line!.ms).toBe('number');
    expect(JSON.stringify(lines)).not.toContain('jane@agency.gov');
  });

  it('a 5xx answer is logged as a warning; a trusted proxy’s request id is kept, an untrusted one is not', async () => {
    const trusted = await start({ trustProxy: true });
    const untrusted = await start({});
    const lines = await captured(async () => {
      await (await fetch(`${trusted}/api/fail`, { headers: { 'x-request-id': 'proxy-id-12345' } })).text();
      await (await fetch(`${untrusted}/api/x`, { headers: { 'x-request-id': 'forged-id-12345' } })).text();
    });
    const requests = lines.filter((l) => l.msg === 'request');
    expect(requests[0]).toMatchObject({ level: 'warn', id: 'proxy-id-12345', status: 500 });
    expect(requests[1]!.id).not.toBe('forged-id-12345');
  });

  it('plain static requests are logged only with the access log on', async () => {
    const quiet = await start({});
    const loud = await start({ accessLog: true });
    const lines = await captured(async () => {
      await (await fetch(`${quiet}/`)).text();
      await (await fetch(`${loud}/`)).text();
    });
    const requests = lines.filter((l) => l.msg === 'request');
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'GET', path: '/', status: 200 });
  });
});
