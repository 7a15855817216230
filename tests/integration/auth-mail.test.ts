import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { mailOutbox } from '#server/db/schema/index.ts';
import { enqueueMail } from '#server/mail/outbox.ts';
import { createMailTransport, type MailTransport } from '#server/mail/transport.ts';
import { MAIL_MAX_ATTEMPTS } from '#server/mail/worker.ts';
import { makeUser, passwordStep } from './helpers/auth';
import { expectLogs } from './helpers/expected-logs';
import { startTestServer, type TestServer } from './helpers/server';
import { bundleApi, resetEnvCache } from '../helpers/bundle';

const { deliverDue, startMailWorker } = bundleApi;

/** A real SMTP server in this process (smtp-server on 127.0.0.1:0; nodemailer delivers to it without TLS) that records what it receives. */
const received: { to: string[]; raw: string }[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, session, done) {
    let raw = '';
    stream.on('data', (c: Buffer) => (raw += c.toString()));
    stream.on('end', () => {
      received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
      done();
    });
  },
});

let server: TestServer;
let dataDir: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as { port: number }).port;
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'auth-mail-'));
  process.env.DATA_DIR = dataDir;
  process.env.SMTP_URL = `smtp://127.0.0.1:${port}/?ignoreTLS=true`;
  resetEnvCache();
  server = await startTestServer();
}, 180_000);
afterAll(async () => {
  await server?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function waitFor<T>(probe: () => T | undefined | Promise<T | undefined>, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('mail outbox', { timeout: 120_000 }, () => {
  it('[AUTH][MAIL]: the lockout notice travels from the outbox to a real SMTP server', async () => {
    const worker = startMailWorker({ intervalMs: 500 });
    try {
      const erin = await makeUser(server, 'erin', 'erin-password-1');
      for (let i = 0; i < 5; i++) await passwordStep(server, erin.username, 'wrong-password');
      const mail = await waitFor(() => received.find((m) => m.to.includes(erin.email)));
      expect(mail.raw).toMatch(/Subject: Your account was locked/);
      expect(mail.raw.replace(/=\r?\n/g, '')).toMatch(/locked for 10 minutes/);
      const [row] = await waitFor(async () => {
        const rows = await server.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, erin.email));
        return rows[0]?.status === 'sent' ? rows : undefined;
      });
      expect(row!.messageId).toBeTruthy();
      expect(row!.attempts).toBe(1);
    } finally {
      await worker.stop();
    }
  });

  it('[AUTH][MAIL]: concurrent workers never send the same message twice (FOR UPDATE SKIP LOCKED)', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 12; i++)
      ids.push(await enqueueMail(server.db, { kind: 'test', to: `many${i}@example.com`, subject: `n${i}`, text: 'hello' }));
    const sent: string[] = [];
    const slow: MailTransport = {
      kind: 'test',
      async send(m) {
        await new Promise((r) => setTimeout(r, 20));
        sent.push(m.to);
        return { messageId: `<${m.to}>` };
      },
    };
    await Promise.all([
      deliverDue(server.db, slow, { batch: 5 }),
      deliverDue(server.db, slow, { batch: 5 }),
      deliverDue(server.db, slow, { batch: 5 }),
    ]);
    await deliverDue(server.db, slow);
    const mine = sent.filter((t) => t.startsWith('many'));
    expect(mine).toHaveLength(12);
    expect(new Set(mine).size).toBe(12);
  });

  it('[AUTH][MAIL]: a failed delivery is retried with growing delays, then marked failed', async () => {
    const id = await enqueueMail(server.db, { kind: 'test', to: 'flaky@example.com', subject: 'retry me', text: 'hello' });
    const broken: MailTransport = { kind: 'test', send: async () => Promise.reject(new Error('connection refused')) };
    let t = Date.now() + 60 * 60_000 * 24; // everything else queued so far is due before this
    const delays: number[] = [];
    const said = expectLogs('mail delivery failed; will retry', 'mail delivery failed for good');
    onTestFinished(() => said.restore());
    for (let attempt = 1; attempt <= MAIL_MAX_ATTEMPTS; attempt++) {
      await deliverDue(server.db, broken, { now: new Date(t) });
      const [row] = await server.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
      expect(row!.attempts).toBe(attempt);
      if (attempt < MAIL_MAX_ATTEMPTS) {
        expect(row!.status).toBe('pending');
        expect(row!.lastError).toBe('connection refused');
        delays.push(row!.nextAttemptAt.getTime() - t);
        // Not due a moment before its time...
        await deliverDue(server.db, broken, { now: new Date(row!.nextAttemptAt.getTime() - 1000) });
        t = row!.nextAttemptAt.getTime();
      } else {
        expect(row!.status).toBe('failed');
      }
    }
    expect(delays[0]).toBe(30_000);
    expect(delays[1]).toBe(60_000);
    for (let i = 1; i < delays.length; i++) expect(delays[i]).toBeGreaterThanOrEqual(delays[i - 1]!);
    expect([said.count('mail delivery failed; will retry'), said.count('mail delivery failed for good')]).toEqual([
      MAIL_MAX_ATTEMPTS - 1,
      1,
    ]);
  });

  it('[AUTH][MAIL]: without SMTP_URL each message is kept as a complete .eml file in DATA_DIR/outbox', async () => {
    delete process.env.SMTP_URL;
    resetEnvCache();
    const local = createMailTransport();
    expect(local.kind).toBe('outbox');
    await local.send({ to: 'someone@example.com', subject: 'Local copy', text: 'Your verification code is 123456' });
    const dir = path.join(dataDir, 'outbox');
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.eml'));
    expect(files).toHaveLength(1);
    const eml = fs.readFileSync(path.join(dir, files[0]!), 'utf8');
    expect(eml).toMatch(/^To: someone@example.com$/m);
    expect(eml).toMatch(/^Subject: Local copy$/m);
    expect(eml).toContain('Your verification code is 123456');
    expect(fs.statSync(path.join(dir, files[0]!)).mode & 0o777).toBe(0o600);
  });
});
