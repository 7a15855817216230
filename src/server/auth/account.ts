import { and, eq } from 'drizzle-orm';
import { passwordProblem } from '#shared/password-strength.ts';
import type { ChangePasswordInput } from '#shared/schemas/auth.ts';
import type { Db } from '../db/client';
import { accounts, users, type User } from '../db/schema';
import { HttpError } from '../http';
import { checkPassword, credentialHash } from './credentials';
import { hashPassword } from '../password';
import { endOtherSessions } from './session';

export const WRONG_CURRENT_PASSWORD = 'Current password is incorrect';
export const SAME_PASSWORD = 'New password must be different from the current password';

/** The full user row (with 2FA columns) for the signed-in user. */
export async function loadUser(db: Db, userId: string): Promise<User> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw new HttpError(401, 'Authentication required');
  return user;
}

export async function requireCurrentPassword(db: Db, userId: string, password: string): Promise<void> {
  if (!(await checkPassword(await credentialHash(db, userId), password))) throw new HttpError(400, WRONG_CURRENT_PASSWORD);
}

/** Changes the password and ends every other session of the user; this one stays signed in. */
export async function changePassword(
  db: Db,
  userId: string,
  currentSessionId: string | undefined,
  input: ChangePasswordInput,
): Promise<void> {
  await requireCurrentPassword(db, userId, input.currentPassword);
  if (input.newPassword === input.currentPassword) throw new HttpError(400, SAME_PASSWORD);
  const [owner] = await db
    .select({ username: users.username, email: users.email, name: users.name })
    .from(users)
    .where(eq(users.id, userId));
  const problem = passwordProblem(input.newPassword, owner ? [owner.username ?? '', owner.email, owner.name] : []);
  if (problem) throw new HttpError(400, problem);
  const hash = await hashPassword(input.newPassword);
  await db
    .update(accounts)
    .set({ password: hash })
    .where(and(eq(accounts.userId, userId), eq(accounts.providerId, 'credential')));
  await endOtherSessions(db, userId, currentSessionId);
}
