import type { UserRole } from './constants';

/** The user as the API shows it (`GET /api/user`): never the password or 2FA secret. */
export interface SessionUser {
  id: string;
  username: string;
  email: string;
  name: string;
  role: UserRole;
  twoFactorEnabled: boolean;
  lastLoginAt: string | null;
  updatedAt: string;
  createdAt: string;
}

export interface SessionInfo {
  id: string;
  expiresAt: string;
  /** When the session ends unless another request comes first (the idle limit). */
  idleExpiresAt: string;
}

/** Response header of every signed-in /api call: seconds until the idle sign-out. */
export const IDLE_HEADER = 'x-session-idle-seconds';

/** Request header of the back office's background polls: they do not count as activity. */
export const BACKGROUND_HEADER = 'x-background-refresh';
