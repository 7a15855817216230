/**
 * `npm run admin:create -- --username NAME --email ADDRESS [--role admin|user]`
 * Creates an account. The password comes from ADMIN_PASSWORD, or is generated and printed once.
 * With the embedded database, stop the server first (only one process may open it).
 */
import { passwordProblem } from '#shared/password-strength.ts';
import { runScript } from './run-script';
import { parseArgs } from 'node:util';
import { generatePassword } from '#server/auth/password.ts';
import { getDb } from '#server/db/client.ts';
import { createUser } from '#server/services/users.ts';
import { newPasswordSchema } from '#shared/schemas/auth.ts';
import { USER_ROLES, type UserRole } from '#shared/constants.ts';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { username: { type: 'string' }, email: { type: 'string' }, role: { type: 'string', default: 'admin' } },
  });
  if (!values.username || !values.email)
    throw new Error('Usage: npm run admin:create -- --username NAME --email ADDRESS [--role admin|user]');
  if (!USER_ROLES.includes(values.role as UserRole)) throw new Error(`--role must be one of ${USER_ROLES.join(', ')}`);
  const given = process.env.ADMIN_PASSWORD;
  if (given) {
    newPasswordSchema.parse(given);
    const problem = passwordProblem(given, [values.username, values.email]);
    if (problem) throw new Error(`ADMIN_PASSWORD: ${problem}`);
  }
  const password = given ?? generatePassword();
  const user = await createUser(await getDb(), { username: values.username, email: values.email, password, role: values.role as UserRole });
  console.log(`Created ${user.role} "${user.displayUsername ?? user.username}" <${user.email}>.`);
  if (!given) console.log(`Password (shown once, change it from the Account tab): ${password}`);
}

runScript(main);
