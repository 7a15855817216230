import { eq } from 'drizzle-orm';
import { verifyPassword, dummyHash } from '../../server/auth/password';
import { SESSION_COOKIE, SESSION_MAX_MS, createSession, toSessionUser } from '../../server/auth/session';
import { getDb } from '../../server/db/client';
import { accounts, users } from '../../server/db/schema';
import { HttpError, defineHandler, json, readJson } from '../../server/http';
import { findUserByLogin } from '../../server/services/users';
import { loginSchema } from '../../shared/schemas/auth';
import { and } from 'drizzle-orm';

export const prerender = false;

/** Username or e-mail + password → a session cookie. (Two factors, limits and lockout: accounts issue.) */
export const POST = defineHandler(async ({ request, cookies, locals, url }) => {
  const { username, password } = loginSchema.parse(await readJson(request));
  const db = await getDb();
  const user = await findUserByLogin(db, username);
  const [account] = user
    ? await db
        .select({ password: accounts.password })
        .from(accounts)
        .where(and(eq(accounts.userId, user.id), eq(accounts.providerId, 'credential')))
        .limit(1)
    : [];
  const ok = await verifyPassword(account?.password ?? (await dummyHash()), password);
  if (!user || !account?.password || !ok) throw new HttpError(401, 'Invalid username or password');

  const { token } = await createSession(db, user.id, {
    ipAddress: locals.clientIp,
    userAgent: request.headers.get('user-agent') ?? undefined,
  });
  const [updated] = await db.update(users).set({ lastLoginAt: new Date() }).where(eq(users.id, user.id)).returning();
  cookies.set(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: url.protocol === 'https:',
    path: '/',
    maxAge: SESSION_MAX_MS / 1000,
  });
  return json({ success: true, message: 'Login successful', user: toSessionUser(updated!), requires2FA: false });
});
