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
}
