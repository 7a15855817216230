import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

const SINK = path.join(path.dirname(fileURLToPath(import.meta.url)), 'smtp-sink.mjs');

/** The SMTP server process of smtp-sink.mjs; `received` lists what it accepted, across restarts. */
export class SmtpSink {
  readonly received: ReceivedMail[] = [];
  heldCount = 0;
  port = 0;
  private child?: ChildProcess;
  private syncs = new Map<number, () => void>();
  private nextSync = 0;
  /** The latest start or restart: `sync` waits for it, so it never talks to a killed process. */
  private ready: Promise<void> = Promise.resolve();

  static async start(): Promise<SmtpSink> {
    const sink = new SmtpSink();
    sink.ready = sink.spawn(0);
    await sink.ready;
    return sink;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}/?ignoreTLS=true`;
  }

  private spawn(port: number): Promise<void> {
    const child = fork(SINK, [String(port)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.child = child;
    return new Promise((resolve, reject) => {
      child.once('error', reject);
      child.on('message', (msg: { type: string; port?: number } & ReceivedMail) => {
        if (msg.type === 'ready') {
          this.port = msg.port!;
          resolve();
        } else if (msg.type === 'listen-failed') reject(new Error(`the SMTP sink could not listen on port ${port}`));
        else if (msg.type === 'message') this.received.push({ from: msg.from, to: msg.to, raw: msg.raw });
        else if (msg.type === 'held') this.heldCount++;
        else if (msg.type === 'synced') this.syncs.get((msg as unknown as { n: number }).n)?.();
      });
    });
  }

  /**
   * Resolves once every message the server has answered 250 so far is in `received`. A process
   * that dies first has already reported everything it answered (its IPC messages arrive before
   * its exit), so its exit resolves too; during a restart this waits for the new process.
   */
  async sync(): Promise<void> {
    await this.ready.catch(() => {});
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null || !child.connected) return;
    const n = this.nextSync++;
    await new Promise<void>((resolve) => {
      const done = () => {
        this.syncs.delete(n);
        child.off('exit', done);
        resolve();
      };
      this.syncs.set(n, done);
      child.once('exit', done);
      child.send({ type: 'sync', n }, (err) => err && done());
    });
  }

  mode(mode: 'accept' | 'refuse' | 'reject' | 'hold'): void {
    this.child?.send({ type: 'mode', mode });
  }

  release(): void {
    this.child?.send({ type: 'release' });
  }

  /** Kills the process at once (SIGKILL): held messages were never answered, so never received. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }

  /**
   * Starts the server again, on the same port unless another process of the test run took it in
   * between (then on a new one: `url` changes, and the caller points its transport there).
   */
  restart(): Promise<void> {
    this.ready = this.respawn();
    return this.ready;
  }

  private async respawn(): Promise<void> {
    await this.kill();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('not ready in 5 s')), 5_000)));
    try {
      await Promise.race([this.spawn(this.port), late]);
    } catch {
      await this.kill();
      await this.spawn(0);
    } finally {
      clearTimeout(timer);
    }
  }

  async stop(): Promise<void> {
    await this.kill();
  }

  to(address: string): ReceivedMail[] {
    return this.received.filter((m) => m.to.includes(address));
  }
}

export async function waitFor<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface ParsedMail {
  /** Header name (lower case) → unfolded value; repeated headers keep every value. */
  headers: Map<string, string[]>;
  header(name: string): string | undefined;
  text: string;
  html: string;
}

function decodeBody(body: string, encoding: string | undefined): string {
  const enc = (encoding ?? '').toLowerCase();
  if (enc === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (enc === 'quoted-printable') {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h: string) => `%${h}`);
    // Percent-escape everything else so decodeURIComponent reads the bytes as UTF-8.
    return decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/gi, '%25'));
  }
  return body;
}

function splitHead(raw: string): { head: string; body: string } {
  const i = raw.search(/\r?\n\r?\n/);
  if (i < 0) return { head: raw, body: '' };
  const sep = raw.slice(i).match(/^\r?\n\r?\n/)![0];
  return { head: raw.slice(0, i), body: raw.slice(i + sep.length) };
}

function parseHeaders(head: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const c = line.indexOf(':');
    if (c <= 0) continue;
    const key = line.slice(0, c).trim().toLowerCase();
    map.set(key, [...(map.get(key) ?? []), line.slice(c + 1).trim()]);
  }
  return map;
}

/** Decodes RFC 2047 encoded words (=?UTF-8?Q?...?= and =?UTF-8?B?...?=). */
export function decodeWords(value: string): string {
  return value.replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*(?==\?)?/gi, (_, kind: string, data: string) =>
    kind.toLowerCase() === 'b' ? Buffer.from(data, 'base64').toString('utf8') : decodeBody(data.replace(/_/g, ' '), 'quoted-printable'),
  );
}

/** A small MIME reader for the messages nodemailer writes (text, html, multipart/alternative). */
export function parseMail(raw: string): ParsedMail {
  const { head, body } = splitHead(raw);
  const headers = parseHeaders(head);
  const out = { text: '', html: '' };
  const walk = (hdrs: Map<string, string[]>, content: string) => {
    const type = hdrs.get('content-type')?.[0] ?? 'text/plain';
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
    if (/^multipart\//i.test(type) && boundary) {
      for (const part of content.split(`--${boundary}`).slice(1)) {
        if (part.startsWith('--')) break;
        const p = splitHead(part.replace(/^\r?\n/, ''));
        walk(parseHeaders(p.head), p.body);
      }
      return;
    }
    const decoded = decodeBody(content, hdrs.get('content-transfer-encoding')?.[0]).replace(/\r\n/g, '\n');
    if (/^text\/html/i.test(type)) out.html += decoded;
    else out.text += decoded;
  };
  walk(headers, body);
  return { headers, header: (name) => headers.get(name.toLowerCase())?.[0], text: out.text, html: out.html };
}
