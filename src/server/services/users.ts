import { randomUUID } from 'node:crypto';
import { eq, or, sql } from 'drizzle-orm';
import type { UserRole } from '#shared/constants.ts';
import type { Db, Tx } from '../db/client';
import { accounts, sessions, users } from '../db/schema';
import { hashPassword } from '../password';
import { HttpError } from '../http';

export interface CreateUserInput {
  username: string;
  email: string;
  password: string;
  role: UserRole;
  name?: string;
}

/** Creates a user with a credential account (the shape better-auth reads). */
export async function createUser(db: Db, input: CreateUserInput) {
  const username = input.username.trim().toLowerCase();
  const email = input.email.trim().toLowerCase();
  const existing = await findUserByLogin(db, username).then((u) => u ?? findUserByLogin(db, email));
  if (existing) throw new HttpError(409, 'A user with this username or email already exists');
  const id = randomUUID();
  const hash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const [user] = await tx
      .insert(users)
      .values({
        id,
        name: input.name ?? input.username,
        email,
        username,
        displayUsername: input.username,
        role: input.role,
        emailVerified: false,
      })
      .returning();
    await tx.insert(accounts).values({
      id: randomUUID(),
      accountId: id,
      providerId: 'credential',
      userId: id,
      password: hash,
    });
    return user!;
  });
}

/** Finds a user by username or e-mail, case-insensitively. */
export async function findUserByLogin(db: Db, login: string) {
  const value = login.trim().toLowerCase();
  const [user] = await db
    .select()
    .from(users)
    .where(or(eq(users.username, value), eq(sql`lower(${users.email})`, value)))
    .limit(1);
  return user ?? null;
}

/**
 * Sets a new password, lifts the lockout and ends every session of the user (operator reset,
 * e-mailed reset link). `first` runs in the same transaction beforehand: if it throws, nothing changes.
 */
export async function setPassword(db: Db, userId: string, password: string, first?: (tx: Tx) => Promise<void>): Promise<void> {
  const hash = await hashPassword(password);
  await db.transaction(async (tx) => {
    await first?.(tx);
    const updated = await tx
      .update(accounts)
      .set({ password: hash })
      .where(sql`${accounts.userId} = ${userId} and ${accounts.providerId} = 'credential'`)
      .returning({ id: accounts.id });
    if (updated.length === 0) {
      await tx.insert(accounts).values({ id: randomUUID(), accountId: userId, providerId: 'credential', userId, password: hash });
    }
    await tx.update(users).set({ failedLoginCount: 0, lockedUntil: null }).where(eq(users.id, userId));
    await tx.delete(sessions).where(eq(sessions.userId, userId));
  });
}

export async function countAdmins(db: Db): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(eq(users.role, 'admin'));
  return row?.n ?? 0;
}
