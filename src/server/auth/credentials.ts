import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { accounts } from '../db/schema';
import { dummyHash, verifyPassword } from '../password';

/** The stored password hash of a user's credential account, if any. */
export async function credentialHash(db: Db, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ password: accounts.password })
    .from(accounts)
    .where(and(eq(accounts.userId, userId), eq(accounts.providerId, 'credential')))
    .limit(1);
  return row?.password ?? null;
}

/** Checks a password; without a stored hash it still spends the same time on a dummy one. */
export async function checkPassword(hash: string | null, password: string): Promise<boolean> {
  const ok = await verifyPassword(hash ?? (await dummyHash()), password);
  return Boolean(hash) && ok;
}
