import { betterAuth, type BetterAuthPlugin } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { createAuthEndpoint } from 'better-auth/api';
import { setSessionCookie } from 'better-auth/cookies';
import { username } from 'better-auth/plugins';
import { z } from 'zod';
import { LIMITS } from '#shared/constants.ts';
import type { Db } from '../db/client';
import { accounts, sessions, users, verifications } from '../db/schema';
import { env } from '../env';
import { hashPassword, verifyPassword } from '../password';
import { COOKIE_PREFIX } from './cookies';
import { checkProviderUser, mayCreateAccount } from './provider-link';
import { providerPlugins } from './providers';
import { authSecret } from './secret';

/** Sessions end after 30 minutes idle (SESSION_IDLE_SECONDS) and 12 hours at most. */
export const sessionIdleMs = () => env().SESSION_IDLE_SECONDS * 1000;
export const SESSION_MAX_MS = 12 * 60 * 60 * 1000;

/**
 * A server-only endpoint (never routed over HTTP) that issues a session once our own checks
 * (limits, lockout, second factor) have passed: better-auth creates the row and sets its signed
 * session cookie (its twoFactor plugin's enable needs the password and makes the secret itself,
 * which the product's setup-then-enable contract does not fit).
 */
const sessionIssuer = () =>
  ({
    id: 'session-issuer',
    endpoints: {
      issueSession: createAuthEndpoint(
        '/session-issuer/issue',
        {
          method: 'POST',
          body: z.object({ userId: z.string().min(1), ipAddress: z.string().max(100).optional() }),
          metadata: { SERVER_ONLY: true },
        },
        async (ctx) => {
          const user = await ctx.context.internalAdapter.findUserById(ctx.body.userId);
          if (!user) throw new Error('issueSession: unknown user');
          const session = await ctx.context.internalAdapter.createSession(user.id, false, { ipAddress: ctx.body.ipAddress ?? '' });
          await setSessionCookie(ctx, { session, user });
          return ctx.json({ sessionId: session.id });
        },
      ),
    },
  }) satisfies BetterAuthPlugin;

/** Third-party providers configured by environment (none → the sign-in page offers no button). */
export function configuredProviders(): string[] {
  const e = env();
  const list: string[] = [];
  if (e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET) list.push('google');
  if (e.MICROSOFT_CLIENT_ID && e.MICROSOFT_CLIENT_SECRET) list.push('microsoft');
  return list;
}

/**
 * Session cookies: over https (SITE_URL https, or TRUST_PROXY with `X-Forwarded-Proto: https`)
 * every better-auth cookie is `__Host-ps.*` and Secure: bound to this host, never sent over
 * plain http, never settable by a sibling subdomain. Over http (local use) they are `ps.*`.
 */
function createAuth(db: Db, secure: boolean) {
  const e = env();
  return betterAuth({
    appName: 'Procurement Services',
    baseURL: e.SITE_URL,
    basePath: '/api/auth',
    secret: authSecret(),
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: { user: users, session: sessions, account: accounts, verification: verifications },
    }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: LIMITS.passwordMin,
      maxPasswordLength: LIMITS.passwordMax,
      autoSignIn: false,
      password: {
        hash: hashPassword,
        verify: ({ hash, password }) => verifyPassword(hash, password),
      },
    },
    user: {
      // A provider signs in, signs up or links only with an address it has verified (./provider-link.ts).
      validateUserInfo: checkProviderUser,
      additionalFields: {
        role: { type: 'string', input: false, defaultValue: 'user', required: false },
        twoFactorEnabled: { type: 'boolean', input: false, defaultValue: false, required: false },
        lastLoginAt: { type: 'date', input: false, required: false },
      },
    },
    session: {
      expiresIn: SESSION_MAX_MS / 1000,
      // The 12-hour limit is absolute; the idle limit is ours (lastActiveAt, src/middleware.ts).
      disableSessionRefresh: true,
      additionalFields: { lastActiveAt: { type: 'date', input: false, required: false } },
    },
    account: {
      accountLinking: {
        enabled: true,
        // Trusted here means better-auth goes on to our checks: the address must be marked verified
        // (user.validateUserInfo), and even then its link is held (databaseHooks below) until the
        // account's password is given.
        trustedProviders: ['google', 'microsoft'],
        // No address here is verified by mail: with registration open anyone could have claimed an
        // address first, so no provider links at all.
        requireLocalEmailVerified: e.ALLOW_REGISTRATION,
      },
    },
    databaseHooks: {
      account: {
        create: {
          before: async (account, ctx) => {
            if (account.providerId === 'credential') return undefined;
            // Inside better-auth's transaction: a user with no way in yet is one this sign-up made.
            const existing = ctx ? await ctx.context.internalAdapter.findAccounts(account.userId) : undefined;
            return existing && mayCreateAccount(account, existing.length === 0) ? undefined : false;
          },
        },
      },
    },
    // Google and Microsoft come as plugins (./providers.ts): each verifies the ID token it gets.
    // A refused provider sign-in comes back to the sign-in page, which says why (?error=…).
    onAPIError: { errorURL: '/auth' },
    // better-auth's limiter only guards its own router (auth.api.* calls bypass it); ours lives in the database.
    rateLimit: { enabled: false },
    advanced: {
      cookiePrefix: secure ? `__Host-${COOKIE_PREFIX}` : COOKIE_PREFIX,
      // better-auth's own secure mode prefixes `__Secure-`; `__Host-` (no Domain, Path=/) is stricter.
      useSecureCookies: false,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax', path: '/', secure },
    },
    plugins: [username({ minUsernameLength: LIMITS.loginMin, maxUsernameLength: 64 }), sessionIssuer(), ...providerPlugins(e)],
  });
}

export type Auth = ReturnType<typeof createAuth>;

const instances = new WeakMap<Db, { plain?: Auth; secure?: Auth }>();

/**
 * The better-auth instance for a database handle (tests swap handles between files) and for the
 * request's transport: `isSecureRequest(request, SITE_URL)` picks the `__Host-` cookies.
 */
export function getAuth(db: Db, secure: boolean): Auth {
  let pair = instances.get(db);
  if (!pair) instances.set(db, (pair = {}));
  const key = secure ? 'secure' : 'plain';
  return (pair[key] ??= createAuth(db, secure));
}

export async function sessionCookieName(auth: Auth): Promise<string> {
  return (await auth.$context).authCookies.sessionToken.name;
}
