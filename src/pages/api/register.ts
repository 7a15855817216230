import { withCookies } from '#server/auth/cookies.ts';
import { countAttempt } from '#server/auth/limits.ts';
import { authFor, issueSession } from '#server/auth/session.ts';
import { getDb } from '#server/db/client.ts';
import { env } from '#server/env.ts';
import { HttpError, defineHandler, json, readJson } from '#server/http.ts';
import { findUserByLogin } from '#server/services/users.ts';
import { passwordProblem } from '#shared/password-strength.ts';
import { registerSchema } from '#shared/schemas/auth.ts';

export const prerender = false;

/** Self-registration: closed unless ALLOW_REGISTRATION=true; new accounts get role `user`. */
export const POST = defineHandler(async ({ request, locals }) => {
  if (!env().ALLOW_REGISTRATION) throw new HttpError(403, 'Registration is closed');
  const input = registerSchema.parse(await readJson(request));
  const db = await getDb();
  await countAttempt(db, 'register', locals.clientIp);
  const problem = passwordProblem(input.password, [input.username, input.email, input.name ?? '']);
  if (problem) throw new HttpError(400, problem);
  if ((await findUserByLogin(db, input.username)) || (await findUserByLogin(db, input.email))) {
    throw new HttpError(409, 'A user with this username or email already exists');
  }
  const { user } = await authFor(db, request).api.signUpEmail({
    body: { email: input.email.toLowerCase(), password: input.password, name: input.name ?? input.username, username: input.username },
    headers: request.headers,
  });
  const session = await issueSession(db, request, user.id, locals.clientIp);
  return withCookies(json({ success: true, message: 'Registration successful', user: session.user }, { status: 201 }), session.cookies);
});
