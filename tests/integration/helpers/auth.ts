import { eq } from 'drizzle-orm';
import { generate } from 'otplib';
import { mailOutbox } from '#server/db/schema/index.ts';
import { createUser } from '#server/services/users.ts';
import { cookieHeader, type TestServer } from './server';
import { bundleApi } from '../../helpers/bundle';

const { now } = bundleApi;

/** Signs in with the password step only; returns the answer and the cookies it set. */
export async function passwordStep(server: TestServer, username: string, password: string) {
  const res = await server.request('/api/login', { method: 'POST', json: { username, password } });
  return { res, body: await res.json(), cookie: cookieHeader(res) };
}

/** A role `user` account (registration is closed, so it is made directly). */
export async function makeUser(server: TestServer, name: string, password = 'user-password-1', role: 'user' | 'admin' = 'user') {
  await createUser(server.db, { username: name, email: `${name}@example.com`, password, role });
  return { username: name, email: `${name}@example.com`, password };
}

/** The current authenticator code on the server's clock (`stepOffset` moves whole 30 s steps). */
export function totp(secret: string, stepOffset = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(now().getTime() / 1000) + stepOffset * 30 });
}

/** The newest queued mail to an address. */
export async function lastMailTo(server: TestServer, to: string) {
  const rows = await server.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to));
  return rows.sort((a, b) => b.id - a.id)[0];
}

export function codeFromMail(text: string | undefined): string {
  const m = /verification code is (\d{6})/.exec(text ?? '');
  if (!m) throw new Error(`no code in mail: ${text}`);
  return m[1]!;
}

/** Turns 2FA on through the API; returns the secret and the recovery codes. */
export async function enable2fa(server: TestServer, cookie: string) {
  const setup = await (await server.request('/api/auth/2fa/setup', { method: 'POST', json: {}, cookie })).json();
  const res = await server.request('/api/auth/2fa/enable', {
    method: 'POST',
    json: { secret: setup.secret, token: await totp(setup.secret) },
    cookie,
  });
  if (res.status !== 200) throw new Error(`enable failed: ${res.status} ${await res.text()}`);
  const body = await res.json();
  return { secret: setup.secret as string, recoveryCodes: body.recoveryCodes as string[] };
}
