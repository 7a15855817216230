/**
 * `npm run admin:create -- --username NAME --email ADDRESS [--role admin|user] [--password PASSWORD]`
 * Creates an account. The password is the one given with --password, or is generated and printed
 * once; ADMIN_PASSWORD is not used (it is the first administrator's, for the first start only).
 * With the embedded database, stop the server first (only one process may open it).
 */
import { passwordProblem } from '#shared/password-strength.ts';
import { checked, runScript } from './run-script';
import { parseArgs } from 'node:util';
import { generatePassword } from '#server/password.ts';
import { getDb } from '#server/db/client.ts';
import { createUser } from '#server/services/users.ts';
import { newPasswordSchema, registerSchema } from '#shared/schemas/auth.ts';
import { USER_ROLES, type UserRole } from '#shared/constants.ts';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      username: { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string', default: 'admin' },
      password: { type: 'string' },
    },
  });
  if (!values.username || !values.email)
    throw new Error('Usage: npm run admin:create -- --username NAME --email ADDRESS [--role admin|user] [--password PASSWORD]');
  if (!USER_ROLES.includes(values.role as UserRole)) throw new Error(`--role must be one of ${USER_ROLES.join(', ')}`);
  // The same rules as self-registration, checked before the database is opened.
  const { username, email } = checked(registerSchema.pick({ username: true, email: true }), values);
  const given = values.password;
  if (given !== undefined) {
    checked(newPasswordSchema, given, '--password');
    const problem = passwordProblem(given, [username, email]);
    if (problem) throw new Error(`--password: ${problem}`);
  }
  const password = given ?? generatePassword();
  const user = await createUser(await getDb(), { username, email, password, role: values.role as UserRole });
  console.log(`Created ${user.role} "${user.displayUsername ?? user.username}" <${user.email}>.`);
  if (!given) console.log(`Password (shown once, change it from the Account tab): ${password}`);
}

runScript(main);
