import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { desc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactSubmissions } from '#server/db/schema/index.ts';
import { freePort } from './helpers/ports';
import { TEST_ADMIN, startTestServer, type TestServer } from './helpers/server';
import { resetEnvCache } from '../helpers/bundle';

/*
 * The product behind a real nginx (Debian's), as a deployment runs it: TLS ends at nginx, which
 * forwards X-Forwarded-For and X-Forwarded-Proto, and the server runs with TRUST_PROXY. Client
 * addresses, https, cookies and HSTS are checked as a browser and the database see them.
 */
const NGINX = '/usr/sbin/nginx';

/** Debian's nginx and openssl, installed when missing (the suite runs as root on CI machines). */
function ensureTools(): void {
  if (fs.existsSync(NGINX) && spawnSync('sh', ['-c', 'command -v openssl']).status === 0) return;
  if (process.getuid?.() !== 0) throw new Error('nginx and openssl are needed: apt-get install nginx openssl');
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'ignore' });
  const res = spawnSync('apt-get', ['install', '-y', '-qq', 'nginx', 'openssl'], {
    stdio: 'ignore',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (res.status !== 0 || !fs.existsSync(NGINX)) throw new Error('installing nginx failed');
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request to nginx; https skips certificate checks (self-signed), `from` picks the client's loopback address. */
function call(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string; from?: string } = {},
): Promise<Answer> {
  const u = new URL(url);
  const mod = u.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = mod.request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname + u.search,
        method: opts.method ?? 'GET',
        headers: opts.headers,
        localAddress: opts.from,
        rejectUnauthorized: false,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

let server: TestServer;
let nginx: ChildProcess | undefined;
let dir: string;
let tlsUrl: string;
let plainUrl: string;

beforeAll(async () => {
  ensureTools();
  process.env.TRUST_PROXY = 'true';
  resetEnvCache();
  server = await startTestServer({ trustProxy: true });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'proxy-'));
  const sslRes = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-keyout',
      path.join(dir, 'key.pem'),
      '-out',
      path.join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  expect(sslRes.status).toBe(0);
  const [tls, plain] = [await freePort(), await freePort()];
  const app = new URL(server.url);
  fs.writeFileSync(
    path.join(dir, 'nginx.conf'),
    `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream app { server ${app.host}; keepalive 8; }
  server {
    listen 127.0.0.1:${tls} ssl;
    listen 127.0.0.1:${plain};
    ssl_certificate ${dir}/cert.pem;
    ssl_certificate_key ${dir}/key.pem;
    location / {
      proxy_pass http://app;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
    }
  }
}
`,
  );
  nginx = spawn(NGINX, ['-c', path.join(dir, 'nginx.conf'), '-p', dir], { stdio: 'ignore' });
  tlsUrl = `https://127.0.0.1:${tls}`;
  plainUrl = `http://127.0.0.1:${plain}`;
  for (let i = 0; i < 100; i++) {
    const up = await call(`${tlsUrl}/api/content/header/active`).catch(() => undefined);
    if (up?.status === 200) break;
    await new Promise((r) => setTimeout(r, 100));
  }
}, 300_000);

afterAll(async () => {
  nginx?.kill('SIGTERM');
  await server?.close();
  delete process.env.TRUST_PROXY;
  resetEnvCache();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('[SECURITY][PROXY] behind nginx with TLS', { timeout: 60_000 }, () => {
  it('https answers carry HSTS; plain http through the same proxy does not', async () => {
    const secure = await call(`${tlsUrl}/api/content/header/active`);
    expect(secure.status).toBe(200);
    expect(secure.headers['strict-transport-security']).toBe('max-age=63072000; includeSubDomains');
    const plain = await call(`${plainUrl}/api/content/header/active`);
    expect(plain.status).toBe(200);
    expect(plain.headers['strict-transport-security']).toBeUndefined();
  });

  it('signing in over https sets the Secure __Host- session cookie, which authenticates the next call', async () => {
    const origin = tlsUrl;
    const login = await call(`${tlsUrl}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ username: TEST_ADMIN.username, password: TEST_ADMIN.password }),
    });
    expect(login.status).toBe(200);
    const cookies = [login.headers['set-cookie'] ?? []].flat();
    const session = cookies.find((c) => c.startsWith('__Host-ps.session_token='));
    expect(session).toMatch(/;\s*Secure/i);
    expect(session).toMatch(/;\s*Path=\//i);
    expect(session).not.toMatch(/Domain=/i);
    const cookie = cookies.map((c) => c.split(';')[0]).join('; ');
    const me = await call(`${tlsUrl}/api/user`, { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(JSON.parse(me.body).user.username).toBe(TEST_ADMIN.username);
  });

  it('the client address is the one nginx saw, not one the client forged in X-Forwarded-For', async () => {
    const res = await call(`${tlsUrl}/api/contact`, {
      method: 'POST',
      from: '127.0.0.7',
      headers: { 'content-type': 'application/json', origin: tlsUrl, 'x-forwarded-for': '203.0.113.9' },
      body: JSON.stringify({ name: 'Jane Buyer', email: 'jane@agency.gov', message: 'Forty laptops by June, please.' }),
    });
    expect(res.status).toBe(201);
    const [row] = await server.db.select().from(contactSubmissions).orderBy(desc(contactSubmissions.id)).limit(1);
    expect(row!.ipAddress).toBe('127.0.0.7');
  });
});
