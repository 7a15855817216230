import { HttpError } from '../http';
import type { SessionUser } from '#shared/session.ts';

interface GuardLocals {
  user: SessionUser | null;
}

/** 401 without a session. */
export function requireUser(locals: GuardLocals): SessionUser {
  if (!locals.user) throw new HttpError(401, 'Authentication required');
  return locals.user;
}

/** 401 without a session, 403 for any role but admin. Every admin endpoint starts with this. */
export function requireAdmin(locals: GuardLocals): SessionUser {
  const user = requireUser(locals);
  if (user.role !== 'admin') throw new HttpError(403, 'Administrator access required');
  return user;
}
