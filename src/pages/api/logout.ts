import { SESSION_COOKIE, deleteSession } from '../../server/auth/session';
import { getDb } from '../../server/db/client';
import { defineHandler, json } from '../../server/http';

export const prerender = false;

/** Ends the session on the server and clears the cookie. */
export const POST = defineHandler(async ({ cookies }) => {
  const token = cookies.get(SESSION_COOKIE)?.value;
  if (token) await deleteSession(await getDb(), token);
  cookies.delete(SESSION_COOKIE, { path: '/' });
  return json({ success: true, message: 'Logged out' });
});
