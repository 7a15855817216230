import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { and, eq, gt, like, lt, ne } from 'drizzle-orm';
import type { Db } from '../db/client';
import { accounts, verifications, type User } from '../db/schema';
import { HttpError } from '../http';
import { recordAudit } from '../services/audit';
import { now } from '../clock';
import { readCookie, signInStepCookie } from './cookies';
import { hashToken, randomToken } from './crypto';
import { queueProviderLinked, queueProviderUnlinked } from './mail';

/*
 * Linking a provider identity (a Google or Microsoft account) to an account here, on purpose.
 *
 * A provider signs in only with an address it says it has verified (`email_verified`, case folded
 * before comparing). Even then, the first sign-in of a provider identity never seen before into an
 * account that already exists does not link it: better-auth's attempt is held (databaseHooks, below)
 * and the sign-in page asks for that account's password. Only the right password links it, with
 * an audit row and an e-mail to the account's address; the Account tab lists the links and removes
 * them. (Signing in as someone by controlling a provider account that merely claims their address
 * is Microsoft's "nOAuth" class of takeover.)
 */

/** The providers' names as people read them. */
const PROVIDER_NAMES: Record<string, string> = { google: 'Google', microsoft: 'Microsoft' };
const providerName = (providerId: string): string => PROVIDER_NAMES[providerId] ?? providerId;

/** The sign-in page's link step is bound to the provider sign-in that led there by this cookie. */
const LINK_COOKIE = 'ps.provider_link';
const LINK_TTL_MS = 10 * 60 * 1000;
export const LINK_EXPIRED = 'This sign-in has expired. Sign in with the provider again.';
const IDENTIFIER = 'provider-link:';

export interface PendingLink {
  userId: string;
  providerId: string;
  accountId: string;
}

interface CallbackState {
  /** A link better-auth tried to make and was held back. */
  held?: PendingLink;
}

const callbackState = new AsyncLocalStorage<CallbackState>();

/** Runs a provider callback (better-auth's handler) and says which link, if any, it held back. */
export async function runProviderCallback<T>(work: () => Promise<T>): Promise<{ result: T; held?: PendingLink }> {
  const state: CallbackState = {};
  const result = await callbackState.run(state, work);
  return { result, held: state.held };
}

/**
 * databaseHooks.account.create.before: may better-auth make this account row? A password
 * (`credential`) account, yes; the first way in of a user (`firstOfUser`: one a provider sign-up
 * just made, registration open), yes; a provider identity for an account that already has a way
 * in, no: it is held for the password step (only inside a provider callback; anywhere else it is
 * simply refused).
 */
export function mayCreateAccount(account: { providerId: string; accountId: string; userId: string }, firstOfUser: boolean): boolean {
  if (account.providerId === 'credential') return true;
  const state = callbackState.getStore();
  if (!state) return false;
  if (firstOfUser) return true;
  state.held = { userId: account.userId, providerId: account.providerId, accountId: account.accountId };
  return false;
}

/**
 * better-auth's user.validateUserInfo for every provider sign-in, sign-up and link: the provider
 * must say the address is verified. A missing claim counts as not verified.
 */
export function checkProviderUser(data: { user: { emailVerified?: unknown }; source: { method: string } }) {
  if (data.source.method !== 'oauth') return undefined;
  if (data.user.emailVerified !== true) {
    return { error: 'email_not_verified', errorDescription: 'The provider has not verified this e-mail address' };
  }
  return undefined;
}

export function linkCookie(value: string | null, secure: boolean): string {
  return signInStepCookie(LINK_COOKIE, value, LINK_TTL_MS, secure);
}

/** Keeps a held link for ten minutes; returns the raw value of its cookie (stored hashed). */
export async function holdLink(db: Db, link: PendingLink): Promise<string> {
  const raw = randomToken();
  await db.delete(verifications).where(and(like(verifications.identifier, `${IDENTIFIER}%`), lt(verifications.expiresAt, now())));
  await db.insert(verifications).values({
    id: randomUUID(),
    identifier: `${IDENTIFIER}${hashToken(raw)}`,
    value: JSON.stringify(link),
    expiresAt: new Date(now().getTime() + LINK_TTL_MS),
  });
  return raw;
}

/** The held link of the request's cookie, if it is still live. */
export async function heldLink(db: Db, request: Request): Promise<(PendingLink & { rowId: string }) | undefined> {
  const raw = readCookie(request, LINK_COOKIE);
  if (!raw || raw.length > 200) return undefined;
  const [row] = await db
    .select()
    .from(verifications)
    .where(and(eq(verifications.identifier, `${IDENTIFIER}${hashToken(raw)}`), gt(verifications.expiresAt, now())))
    .limit(1);
  if (!row) return undefined;
  return { ...(JSON.parse(row.value) as PendingLink), rowId: row.id };
}

/**
 * Makes the link once the account's password was right: the row, its audit entry and the e-mail
 * to the account's address, in one transaction; the held link is spent. An identity already
 * linked to another account is refused (409).
 */
export async function completeLink(db: Db, user: User, link: PendingLink & { rowId: string }, ip?: string): Promise<void> {
  await db.transaction(async (tx) => {
    const spent = await tx.delete(verifications).where(eq(verifications.id, link.rowId)).returning({ id: verifications.id });
    if (spent.length === 0) throw new HttpError(400, LINK_EXPIRED);
    const [existing] = await tx
      .select()
      .from(accounts)
      .where(and(eq(accounts.providerId, link.providerId), eq(accounts.accountId, link.accountId)))
      .limit(1);
    if (existing && existing.userId !== user.id) throw new HttpError(409, 'That provider account is already linked to another account.');
    if (existing) return;
    const id = randomUUID();
    await tx.insert(accounts).values({ id, providerId: link.providerId, accountId: link.accountId, userId: user.id });
    const name = providerName(link.providerId);
    await recordAudit(
      tx,
      { id: user.id, username: user.username ?? user.email, ip },
      { action: 'create', entity: 'sign-in provider', entityId: id, subject: `${name} sign-in of ${user.username ?? user.email}` },
    );
    await queueProviderLinked(tx, user.email, name, ip);
  });
}

export interface LinkedIdentity {
  id: string;
  provider: string;
  name: string;
  linkedAt: string;
}

/** The provider identities linked to an account (its password is not one of them). */
export async function linkedIdentities(db: Db, userId: string): Promise<LinkedIdentity[]> {
  const rows = await db
    .select({ id: accounts.id, providerId: accounts.providerId, createdAt: accounts.createdAt })
    .from(accounts)
    .where(and(eq(accounts.userId, userId), ne(accounts.providerId, 'credential')))
    .orderBy(accounts.createdAt);
  return rows.map((r) => ({ id: r.id, provider: r.providerId, name: providerName(r.providerId), linkedAt: r.createdAt.toISOString() }));
}

/**
 * Removes one of the account's provider links: audited, and the account's address is told. The
 * last way into an account (one a provider sign-up made has no password) is not removed.
 */
export async function unlinkIdentity(db: Db, user: Pick<User, 'id' | 'email' | 'username'>, id: string, ip?: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [removed] = await tx
      .delete(accounts)
      .where(and(eq(accounts.id, id), eq(accounts.userId, user.id), ne(accounts.providerId, 'credential')))
      .returning();
    if (!removed) throw new HttpError(404, 'Linked sign-in not found');
    const [left] = await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.userId, user.id)).limit(1);
    if (!left) throw new HttpError(409, 'This is the only way to sign into the account: it cannot be removed.');
    const name = providerName(removed.providerId);
    await recordAudit(
      tx,
      { id: user.id, username: user.username ?? user.email, ip },
      { action: 'delete', entity: 'sign-in provider', entityId: removed.id, subject: `${name} sign-in of ${user.username ?? user.email}` },
    );
    await queueProviderUnlinked(tx, user.email, name, ip);
  });
}
