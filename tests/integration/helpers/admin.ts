import { createUser } from '#server/services/users.ts';
import { TEST_ADMIN, signIn, startTestServer, type TestServer } from './server';

export interface AdminTestContext {
  s: TestServer;
  /** Cookie of the seeded administrator. */
  admin: string;
  /** Cookie of a signed-in account with role `user`. */
  user: string;
  /** A request as the administrator. */
  as(cookie: string, method: string, path: string, json?: unknown): Promise<Response>;
}

/** The built server on a clean seeded database, with an admin and a plain user signed in once. */
export async function startAdminContext(opts: Parameters<typeof startTestServer>[0] = {}): Promise<AdminTestContext> {
  const s = await startTestServer(opts);
  await createUser(s.db, { username: 'plainuser', email: 'plain@example.com', password: 'plain-user-pw', role: 'user' });
  const admin = await signIn(s, TEST_ADMIN.username, TEST_ADMIN.password);
  const user = await signIn(s, 'plainuser', 'plain-user-pw');
  return {
    s,
    admin,
    user,
    as: (cookie, method, path, json) => s.request(path, { method, cookie, ...(json !== undefined ? { json } : {}) }),
  };
}
