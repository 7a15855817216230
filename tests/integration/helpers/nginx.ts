import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** The security headers every answer carries, whoever sends it (the app, nginx, a static host). */
export const SECURITY_HEADERS = [
  'strict-transport-security',
  'x-content-type-options',
  'referrer-policy',
  'x-frame-options',
  'cross-origin-opener-policy',
  'permissions-policy',
];

/** Debian's nginx. */
const NGINX = '/usr/sbin/nginx';

/** Debian's nginx and openssl, installed when missing (the suite runs as root on CI machines). */
export function ensureNginx(): void {
  if (fs.existsSync(NGINX) && spawnSync('sh', ['-c', 'command -v openssl']).status === 0) return;
  if (process.getuid?.() !== 0) throw new Error('nginx and openssl are needed: apt-get install nginx openssl');
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'ignore' });
  const res = spawnSync('apt-get', ['install', '-y', '-qq', 'nginx', 'openssl'], {
    stdio: 'ignore',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (res.status !== 0 || !fs.existsSync(NGINX)) throw new Error('installing nginx failed');
}

export interface Nginx {
  process: ChildProcess;
  /** What nginx wrote to its standard error so far. */
  errors(): string;
  stop(): void;
}

/**
 * nginx in the foreground on `dir` (its pid, logs and temporary files there), with a main file
 * around `site` (a file of server blocks and maps) as Debian's nginx.conf is: only what a test in
 * a directory of its own needs.
 */
export function startNginx(dir: string, site: string): Nginx {
  fs.writeFileSync(
    path.join(dir, 'nginx.conf'),
    `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log notice;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${site};
}
`,
  );
  const child = spawn(NGINX, ['-c', path.join(dir, 'nginx.conf'), '-p', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr!.on('data', (d: Buffer) => (errors += d.toString()));
  return { process: child, errors: () => errors, stop: () => void child.kill('SIGTERM') };
}
