import type { PublishState } from './constants';

/*
 * Answers of the API that no form sends back, so no input schema describes them: written once
 * here, returned by the server and read by the back office.
 */

/** GET /api/admin/publish/status. */
export interface PublishStatus {
  state: PublishState;
  lastPublishedAt: string | null;
  lastDurationMs: number | null;
  lastError: string | null;
}

/** GET /api/auth/2fa/status. */
export interface TwoFactorStatus {
  enabled: boolean;
  recoveryCodesRemaining: number;
}

/** POST /api/auth/2fa/setup. */
export interface TwoFactorSetup {
  secret: string;
  qrCode: string;
  manualEntryKey: string;
  otpauthUrl: string;
}
