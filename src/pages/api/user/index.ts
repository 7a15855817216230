import { requireUser } from '#server/auth/guard.ts';
import { defineHandler, json } from '#server/http.ts';

export const prerender = false;

/** The signed-in user; 401 means signed out (SPEC 6). */
export const GET = defineHandler(async ({ locals }) => {
  const user = requireUser(locals);
  return json({ success: true, user });
});
