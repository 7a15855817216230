/**
 * `npm run admin:reset-password -- --username NAME [--disable-2fa]`
 * Sets a new password (NEW_PASSWORD, or generated and printed once), lifts any lockout and ends
 * every session of the account. `--disable-2fa` also turns two-factor off (a lost phone).
 * With the embedded database, stop the server first (only one process may open it).
 */
import { passwordProblem } from '#shared/password-strength.ts';
import { checked, runScript } from './run-script';
import { eq } from 'drizzle-orm';
import { parseArgs } from 'node:util';
import { generatePassword } from '#server/password.ts';
import { getDb } from '#server/db/client.ts';
import { recoveryCodes, users } from '#server/db/schema/index.ts';
import { findUserByLogin, setPassword } from '#server/services/users.ts';
import { newPasswordSchema } from '#shared/schemas/auth.ts';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { username: { type: 'string' }, 'disable-2fa': { type: 'boolean', default: false } } });
  if (!values.username) throw new Error('Usage: npm run admin:reset-password -- --username NAME [--disable-2fa]');
  const given = process.env.NEW_PASSWORD;
  if (given) checked(newPasswordSchema, given, 'NEW_PASSWORD');
  const db = await getDb();
  const user = await findUserByLogin(db, values.username);
  if (!user) throw new Error(`No account named "${values.username}"`);
  if (given) {
    const problem = passwordProblem(given, [user.username ?? '', user.email]);
    if (problem) throw new Error(`NEW_PASSWORD: ${problem}`);
  }
  const password = given ?? generatePassword();
  await setPassword(db, user.id, password);
  if (values['disable-2fa']) {
    await db.transaction(async (tx) => {
      await tx.update(users).set({ twoFactorEnabled: false, twoFactorSecret: null, twoFactorLastStep: null }).where(eq(users.id, user.id));
      await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
    });
  }
  console.log(`Password reset for "${user.displayUsername ?? user.username}"; every session of the account has ended.`);
  if (values['disable-2fa']) console.log('Two-factor authentication is off; turn it on again from the Account tab.');
  if (!given) console.log(`New password (shown once): ${password}`);
}

runScript(main);
