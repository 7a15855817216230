import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import { generateSecret, generateURI, verify as verifyTotp } from 'otplib';
import QRCode from 'qrcode';
import type { Db } from '../db/client';
import { recoveryCodes, twoFactorChallenges, users, verifications, type User } from '../db/schema';
import { HttpError } from '../http';
import { now } from '../clock';
import { CHALLENGE_TTL_MS } from './cookies';
import {
  decryptSecret,
  encryptSecret,
  hashCode,
  hashToken,
  normaliseRecoveryCode,
  randomToken,
  recoveryCode,
  sameHash,
  sixDigitCode,
} from './crypto';
import { assertNotLocked, clearFailures, recordFailure, type SignInClient } from './lockout';
import { queueLoginCode } from './mail';
import type { TwoFactorSetup, TwoFactorStatus } from '#shared/responses.ts';

const ISSUER = 'Procurement Services';
const MAX_CODE_ATTEMPTS = 5;
const RECOVERY_CODE_COUNT = 10;
const SETUP_TTL_MS = 15 * 60_000;

const INVALID_CODE = 'Invalid verification code';
const CHALLENGE_GONE = 'Your verification step has expired. Please sign in again.';

const setupKey = (userId: string) => `2fa-setup:${userId}`;

/** The matched RFC 6238 time step of a valid code (current step ±1), or null. */
async function matchStep(secret: string, token: string): Promise<number | null> {
  const result = await verifyTotp({ secret, token, epoch: Math.floor(now().getTime() / 1000), epochTolerance: 30 });
  if (!result.valid) return null;
  return 'timeStep' in result ? result.timeStep : null;
}

/**
 * Checks an authenticator code (current step ±1). A step at or below the last accepted one is a
 * replay; the conditional update makes "accept a step" atomic across concurrent requests.
 */
async function acceptTotp(db: Db, user: Pick<User, 'id' | 'twoFactorSecret'>, token: string): Promise<boolean> {
  if (!user.twoFactorSecret || !/^\d{6}$/.test(token)) return false;
  const step = await matchStep(decryptSecret(user.twoFactorSecret), token);
  if (step === null) return false;
  const taken = await db
    .update(users)
    .set({ twoFactorLastStep: step })
    .where(and(eq(users.id, user.id), or(isNull(users.twoFactorLastStep), lt(users.twoFactorLastStep, step))))
    .returning({ id: users.id });
  return taken.length === 1;
}

/** Spends one unused recovery code. */
async function acceptRecoveryCode(db: Db, userId: string, input: string): Promise<boolean> {
  const code = normaliseRecoveryCode(input);
  if (!/^[a-z0-9]{5}-[a-z0-9]{5}$/.test(code)) return false;
  const used = await db
    .update(recoveryCodes)
    .set({ usedAt: now() })
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, hashCode('recovery', code)), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  return used.length === 1;
}

/**
 * After a correct password on an account with 2FA: a pending challenge (10 minutes, one use)
 * and a single-use 6-digit code e-mailed in the same transaction. Returns the raw challenge id
 * for the HttpOnly cookie; the database keeps only its hash.
 */
export async function createChallenge(db: Db, user: Pick<User, 'id' | 'email'>, ipAddress?: string): Promise<string> {
  const raw = randomToken();
  const id = hashToken(raw);
  const code = sixDigitCode();
  await db.transaction(async (tx) => {
    await tx.delete(twoFactorChallenges).where(and(eq(twoFactorChallenges.userId, user.id), lt(twoFactorChallenges.expiresAt, now())));
    await tx.insert(twoFactorChallenges).values({
      id,
      userId: user.id,
      emailCodeHash: hashCode('login-code', `${id}:${code}`),
      ipAddress,
      expiresAt: new Date(now().getTime() + CHALLENGE_TTL_MS),
    });
    await queueLoginCode(tx, user.email, code);
  });
  return raw;
}

/**
 * The code step: the challenge from the cookie must be live and belong to the named account;
 * the code may be the e-mailed one, the authenticator's, or a recovery code. A guess is counted
 * before it is checked, in one statement, so concurrent guesses cannot exceed five; the fifth
 * wrong code voids the challenge. Wrong codes also count towards the client's sign-in lockout.
 * `deviceFor` answers the request's device-cookie nonce for an account, if it has one.
 * Returns the user on success (the challenge is then spent).
 */
export async function verifyChallenge(
  db: Db,
  rawChallenge: string | undefined,
  login: string,
  token: string,
  deviceFor: (userId: string) => string | undefined = () => undefined,
): Promise<User> {
  if (!rawChallenge) throw new HttpError(401, CHALLENGE_GONE);
  const id = hashToken(rawChallenge);
  const [counted] = await db
    .update(twoFactorChallenges)
    .set({ attempts: sql`${twoFactorChallenges.attempts} + 1` })
    .where(
      and(
        eq(twoFactorChallenges.id, id),
        isNull(twoFactorChallenges.consumedAt),
        gt(twoFactorChallenges.expiresAt, now()),
        lt(twoFactorChallenges.attempts, MAX_CODE_ATTEMPTS),
      ),
    )
    .returning({
      attempts: twoFactorChallenges.attempts,
      userId: twoFactorChallenges.userId,
      emailCodeHash: twoFactorChallenges.emailCodeHash,
    });
  if (!counted) throw new HttpError(401, CHALLENGE_GONE);
  const [user] = await db.select().from(users).where(eq(users.id, counted.userId));
  if (!user) throw new HttpError(401, CHALLENGE_GONE);
  const client: SignInClient = { device: deviceFor(user.id) };
  await assertNotLocked(db, user, client);
  const name = login.trim().toLowerCase();
  const matchesLogin = name === (user.username ?? '').toLowerCase() || name === user.email.toLowerCase();

  let ok = false;
  if (matchesLogin) {
    if (/^\d{6}$/.test(token)) {
      ok = Boolean(counted.emailCodeHash && sameHash(hashCode('login-code', `${id}:${token}`), counted.emailCodeHash));
      if (!ok && user.twoFactorEnabled) ok = await acceptTotp(db, user, token);
    } else if (user.twoFactorEnabled) {
      ok = await acceptRecoveryCode(db, user.id, token);
    }
  }
  if (!ok) {
    await recordFailure(db, user, client);
    if (counted.attempts >= MAX_CODE_ATTEMPTS) {
      await db.update(twoFactorChallenges).set({ consumedAt: now() }).where(eq(twoFactorChallenges.id, id));
      throw new HttpError(401, 'Too many incorrect codes. Please sign in again.');
    }
    throw new HttpError(401, INVALID_CODE);
  }
  const spent = await db
    .update(twoFactorChallenges)
    .set({ consumedAt: now() })
    .where(and(eq(twoFactorChallenges.id, id), isNull(twoFactorChallenges.consumedAt)))
    .returning({ id: twoFactorChallenges.id });
  if (spent.length !== 1) throw new HttpError(401, CHALLENGE_GONE);
  await clearFailures(db, user, client);
  return user;
}

/** Groups of four for reading off the screen. */
function manualKey(secret: string): string {
  return secret.replace(/(.{4})/g, '$1 ').trim();
}

/** Starts authenticator setup: a new secret (kept server-side, encrypted, 15 minutes) and its QR code. */
export async function startSetup(
  db: Db,
  user: Pick<User, 'id' | 'email' | 'twoFactorEnabled'> & { username: string },
): Promise<TwoFactorSetup> {
  if (user.twoFactorEnabled) throw new HttpError(409, 'Two-factor authentication is already enabled');
  const secret = generateSecret();
  const uri = generateURI({ issuer: ISSUER, label: user.username, secret });
  const qrCode = await QRCode.toDataURL(uri, { margin: 1, width: 240 });
  await db.transaction(async (tx) => {
    await tx.delete(verifications).where(eq(verifications.identifier, setupKey(user.id)));
    await tx.insert(verifications).values({
      id: randomToken(16),
      identifier: setupKey(user.id),
      value: encryptSecret(secret),
      expiresAt: new Date(now().getTime() + SETUP_TTL_MS),
    });
  });
  return { secret, qrCode, manualEntryKey: manualKey(secret), otpauthUrl: uri };
}

/** Turns 2FA on once the app proves it has the secret; returns ten recovery codes, shown once. */
export async function enableTwoFactor(db: Db, userId: string, input: { secret: string; token: string }): Promise<string[]> {
  const [pending] = await db
    .select()
    .from(verifications)
    .where(and(eq(verifications.identifier, setupKey(userId)), gt(verifications.expiresAt, now())))
    .limit(1);
  const secret = pending ? decryptSecret(pending.value) : null;
  if (!secret || secret !== input.secret.replace(/\s+/g, '').toUpperCase()) {
    throw new HttpError(400, 'The setup has expired or does not match. Please start the setup again.');
  }
  const step = /^\d{6}$/.test(input.token) ? await matchStep(secret, input.token) : null;
  if (step === null) throw new HttpError(400, INVALID_CODE);
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, recoveryCode);
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ twoFactorEnabled: true, twoFactorSecret: encryptSecret(secret), twoFactorLastStep: step })
      .where(eq(users.id, userId));
    await tx.delete(verifications).where(eq(verifications.identifier, setupKey(userId)));
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await tx.insert(recoveryCodes).values(codes.map((c) => ({ userId, codeHash: hashCode('recovery', c) })));
  });
  return codes;
}

/** Turns 2FA off; the caller has checked the password, this checks the code. */
export async function disableTwoFactor(db: Db, user: User, token: string): Promise<void> {
  if (!user.twoFactorEnabled) throw new HttpError(409, 'Two-factor authentication is not enabled');
  const ok = /^\d{6}$/.test(token) ? await acceptTotp(db, user, token) : await acceptRecoveryCode(db, user.id, token);
  if (!ok) throw new HttpError(400, INVALID_CODE);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ twoFactorEnabled: false, twoFactorSecret: null, twoFactorLastStep: null }).where(eq(users.id, user.id));
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
  });
}

export async function twoFactorStatus(db: Db, userId: string): Promise<TwoFactorStatus> {
  const [user] = await db.select({ enabled: users.twoFactorEnabled }).from(users).where(eq(users.id, userId));
  const [left] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return { enabled: Boolean(user?.enabled), recoveryCodesRemaining: user?.enabled ? (left?.n ?? 0) : 0 };
}
