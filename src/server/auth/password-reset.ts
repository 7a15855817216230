import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, eq, gt, like, sql } from 'drizzle-orm';
import { passwordProblem } from '#shared/password-strength.ts';
import type { ResetPasswordInput } from '#shared/schemas/auth.ts';
import { afterAnswer } from '../after-answer';
import type { Db } from '../db/client';
import { users, verifications } from '../db/schema';
import { env } from '../env';
import { HttpError } from '../http';
import { log } from '../log';
import { recordAudit } from '../services/audit';
import { enforce, hit } from '../services/rate-limit';
import { setPassword } from '../services/users';
import { SAME_PASSWORD } from './account';
import { now } from '../clock';
import { checkPassword, credentialHash } from './credentials';
import { queuePasswordResetLink } from './mail';

/** A reset link works once, for 30 minutes. */
const RESET_LINK_MINUTES = 30;
const PREFIX = 'password-reset:';
/** Per client address: 5 requests in 15 minutes, then 429 (it says nothing about any account). */
const REQUESTS_PER_ADDRESS = 5;
const ADDRESS_WINDOW_MS = 15 * 60_000;
/** Per account: 3 links an hour; beyond that nothing is sent, and the answer stays the same. */
const LINKS_PER_ACCOUNT = 3;
const ACCOUNT_WINDOW_MS = 60 * 60_000;

export const INVALID_LINK = 'This password reset link has expired or was already used. Ask for a new one from the sign-in page.';
const TOO_MANY_RESET_REQUESTS = 'Too many password reset requests. Please wait 15 minutes and try again.';

/** Only a hash of the token is stored: a copy of the database cannot reset anyone's password. */
const identifierOf = (token: string) => PREFIX + createHash('sha256').update(token).digest('hex');

/** The reset requests answered whose account half is still running. */
const issuing = new Set<Promise<void>>();

/**
 * 'Forgot password?': e-mails a single-use link to the account with this address, if there is
 * one. The caller answers the same either way, and at the same moment: only the per-address limit
 * (which says nothing about any account) is checked before the answer; looking the account up and
 * queueing its link happen after it, so how long the answer takes tells nobody whether the address
 * has an account. A new link replaces any earlier one.
 */
export async function requestPasswordReset(db: Db, email: string, ip: string | undefined): Promise<void> {
  await enforce(db, `password-reset:ip:${ip ?? 'unknown'}`, REQUESTS_PER_ADDRESS, ADDRESS_WINDOW_MS, TOO_MANY_RESET_REQUESTS, now());
  const at = now();
  const job: Promise<void> = new Promise<void>((resolve) => afterAnswer(resolve))
    .then(() => issueResetLink(db, email, ip, at))
    .catch((err: unknown) => log.error('password reset link not issued', { err }))
    .finally(() => issuing.delete(job));
  issuing.add(job);
}

/** Resolves once every reset request answered so far has stored and queued its link (or found no account). */
export async function resetRequestsSettled(): Promise<void> {
  await Promise.all([...issuing]);
}

/** The account-dependent half of a reset request: its link stored (hashed) and queued in the outbox. */
async function issueResetLink(db: Db, email: string, ip: string | undefined, at: Date): Promise<void> {
  const [user] = await db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()))
    .limit(1);
  if (!user) return;
  if (!(await hit(db, `password-reset:user:${user.id}`, LINKS_PER_ACCOUNT, ACCOUNT_WINDOW_MS, at)).allowed) return;

  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(at.getTime() + RESET_LINK_MINUTES * 60_000);
  // In the fragment, the token never reaches a server log or a Referer header.
  const link = `${env().SITE_URL.replace(/\/$/, '')}/auth/reset#token=${token}`;
  await db.transaction(async (tx) => {
    await tx.delete(verifications).where(and(like(verifications.identifier, `${PREFIX}%`), eq(verifications.value, user.id)));
    await tx
      .insert(verifications)
      .values({ id: randomUUID(), identifier: identifierOf(token), value: user.id, expiresAt, createdAt: at, updatedAt: at });
    await queuePasswordResetLink(tx, user.email, link, RESET_LINK_MINUTES);
    await recordAudit(
      tx,
      { id: user.id, username: user.displayUsername ?? user.username ?? user.email, ip },
      { action: 'create', entity: 'password_reset', entityId: user.id, after: { expiresAt } },
    );
  });
}

/**
 * Sets the new password from a reset link: the same strength rules as a password change, every
 * session of the account ended, the lockout lifted. Two-factor stays on, so the next sign-in
 * still asks for the code. A weak password, or the current one, leaves the link usable.
 */
export async function resetPassword(db: Db, input: ResetPasswordInput, ip: string | undefined): Promise<void> {
  const identifier = identifierOf(input.token);
  const [pending] = await db
    .select({ userId: verifications.value })
    .from(verifications)
    .where(and(eq(verifications.identifier, identifier), gt(verifications.expiresAt, now())));
  if (!pending) throw new HttpError(400, INVALID_LINK);
  const [user] = await db.select().from(users).where(eq(users.id, pending.userId));
  if (!user) throw new HttpError(400, INVALID_LINK);
  const problem = passwordProblem(input.newPassword, [user.username ?? '', user.email, user.name]);
  if (problem) throw new HttpError(400, problem);
  // A reset that keeps the password would leave whoever knows it signed in next time.
  if (await checkPassword(await credentialHash(db, user.id), input.newPassword)) throw new HttpError(400, SAME_PASSWORD);

  await setPassword(db, user.id, input.newPassword, async (tx) => {
    // Used once: of two requests with the same link, only the one that deletes it goes on.
    const used = await tx
      .delete(verifications)
      .where(and(eq(verifications.identifier, identifier), gt(verifications.expiresAt, now())))
      .returning({ id: verifications.id });
    if (used.length === 0) throw new HttpError(400, INVALID_LINK);
    await recordAudit(
      tx,
      { id: user.id, username: user.displayUsername ?? user.username ?? user.email, ip },
      { action: 'update', entity: 'password', entityId: user.id, after: { changedBy: 'e-mailed reset link', sessionsEnded: true } },
    );
  });
}
