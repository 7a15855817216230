import type { OutboxStatus, PublishState, SubmissionStatus } from './constants';

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
  /** How the failed publish was made: a local build, or a call of the deploy hook (`webhook`). */
  lastErrorMode: 'local' | 'webhook' | null;
  /**
   * The instances serving the site (each heartbeats every few seconds) and how many of them serve
   * the newest published content; several instances on one Postgres each build their own release.
   */
  instances: { total: number; upToDate: number };
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

/**
 * A reply to an inquiry as the Contacts tab shows it: when it was sent, by whom, and how its
 * e-mail is doing. `D` is `Date` on the server and an ISO string once it has travelled.
 */
export interface ContactResponseView<D = string> {
  id: number;
  message: string;
  sentAt: D;
  sentBy: string | null;
  delivery: { status: OutboxStatus; attempts: number; deliveredAt: D | null; lastError: string | null } | null;
}

/** GET /api/contact-submissions: one inquiry with its replies (never the sender's address or agent). */
export interface SubmissionView<D = string> {
  id: number;
  name: string;
  email: string;
  company: string | null;
  phone: string | null;
  message: string;
  /** "I am…": government, manufacturer, consulting or other (BUYER_TYPES), when the visitor said. */
  buyerType: string | null;
  /** The solicitation or RFQ number the inquiry is about, when given. */
  solicitation: string | null;
  /** When the buyer needs an answer, YYYY-MM-DD, when given. */
  responseDue: string | null;
  /** The visit it came from: the first page its visitor opened that day, the referring host and the UTM values (null when not counted). */
  visitLanding: string | null;
  visitReferrer: string | null;
  visitSource: string | null;
  visitMedium: string | null;
  visitCampaign: string | null;
  status: SubmissionStatus;
  isSpam: boolean;
  spamReason: string | null;
  createdAt: D;
  updatedAt: D;
  responses: ContactResponseView<D>[];
}

/** GET /api/contact-submissions/counts: the inbox per status, the spam total, and the new ones (pending, not spam). */
export interface SubmissionCounts {
  inbox: Record<SubmissionStatus, number> & { total: number };
  spam: number;
  new: number;
}

/** POST /api/documents/upload (SPEC 7): where to PUT the file, and until when that URL works. */
export interface DocumentUploadSlot {
  uploadURL: string;
  expiresAt: string;
}

/** PUT {uploadURL} (SPEC 3 "Upload result"): the stored file's url, to send as filePath. */
export interface DocumentUploadResult {
  success: true;
  url: string;
  fileSize: number;
  message: string;
}

/** An uploaded image as the media library lists it (GET /api/admin/images). */
export interface LibraryImage {
  id: number;
  url: string;
  /** The smallest WebP variant, or the image itself (SVGs and small images have none). */
  thumbnailUrl: string;
  name: string;
  size: number | null;
  width: number | null;
  height: number | null;
  createdAt: string;
  /** Where it is used; earlier versions of a block say so. Empty: used nowhere. */
  usedIn: string[];
}

/** A page of the media library. */
export interface LibraryPage {
  images: LibraryImage[];
  total: number;
  page: number;
  pageSize: number;
}
