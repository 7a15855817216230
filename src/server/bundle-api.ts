/**
 * What the server bundle lends the process that loads it, besides serving (main.ts): the state
 * of the running server that the test suites read or move (the clock, the auth secret, the mail
 * worker, the storage, the publisher and the live release), and functions that use the server's
 * database handle. A test calls these, not its own copy of the modules, so it acts on the server
 * it started.
 */
import { advanceClock, now, resetClock } from './auth/clock';
import { resetRequestsSettled } from './auth/password-reset';
import { authSecret, shareAuthSecret } from './auth/secret';
import { resetEnvCache } from './env';
import { deliverDue, startMailWorker } from './mail/worker';
import { recordChange } from './content/changes';
import { compressionSettled, publishContent } from './publish/go-live';
import { startPublisher } from './publish/publisher';
import { renderBuilder } from './publish/render';
import { isServableDocument, servableUpload } from './services/documents';
import { sendLeadDigest } from './services/lead-digest';
import { resetStorage } from './storage/storage';
import { startControlChannel } from './web/control-channel';
import { liveRelease, liveSite } from './web/live-site';

export const bundleApi = {
  advanceClock,
  authSecret,
  compressionSettled,
  deliverDue,
  isServableDocument,
  liveRelease,
  liveSite,
  now,
  publishContent,
  recordChange,
  renderBuilder,
  resetClock,
  resetEnvCache,
  resetRequestsSettled,
  resetStorage,
  sendLeadDigest,
  servableUpload,
  shareAuthSecret,
  startControlChannel,
  startMailWorker,
  startPublisher,
};
