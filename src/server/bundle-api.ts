/**
 * What the server bundle lends the process that loads it, besides serving (main.ts): the state
 * of the running server that the test suites read or move (the clock, the auth secret, the mail
 * worker, the storage, the publisher and the live release), and functions that use the server's
 * database handle. A test calls these, not its own copy of the modules, so it acts on the server
 * it started.
 */
import { advanceClock, now, resetClock } from './clock';
import { resetRequestsSettled } from './auth/password-reset';
import { authSecret, forgetAuthSecret, shareAuthSecret } from './auth/secret';
import { resetEnvCache } from './env';
import { deliverDue, startMailWorker } from './mail/worker';
import { recordReads } from './content/reads';
import { compressionSettled, publishContent } from './publish/go-live';
import { startPublisher } from './publish/publisher';
import { ReleaseStore } from './publish/release-store';
import { renderBuilder } from './publish/render';
import { isServableDocument, servableUpload } from './services/documents';
import { forgetUsedUpNotifications, sendLeadDigest } from './services/lead-digest';
import { forgetNotifyToWarning } from './services/lead-mail';
import { forgetLeadsAnswers } from './services/leads-stamp';
import { forgetSearchCounts } from './services/search-limit';
import { resetStorage } from './storage/storage';
import { countView, flushVisits, forgetVisits } from './services/visits';
import { startControlChannel } from './control-channel';

/**
 * Forgets what this process remembers of the environment and of the database it served, as a
 * process that has just started: the environment read afresh, the clock, the storage, the auth
 * secret, the hour's used-up notifications, the inbox's kept answers, the search counts, the
 * CONTACT_NOTIFY_TO warning, the page views not written yet and the days' salts. (Answers kept
 * for visitors go with the server that kept them: each server has its own engine, main.ts
 * `serve`.) The integration suite calls it before each file, whose files share a process and
 * serve a new database each.
 */
function startAfresh(): void {
  resetEnvCache();
  resetClock();
  resetStorage();
  forgetAuthSecret();
  forgetUsedUpNotifications();
  forgetLeadsAnswers();
  forgetSearchCounts();
  forgetNotifyToWarning();
  forgetVisits();
}

export const bundleApi = {
  advanceClock,
  authSecret,
  compressionSettled,
  countView,
  deliverDue,
  flushVisits,
  isServableDocument,
  now,
  publishContent,
  recordReads,
  ReleaseStore,
  renderBuilder,
  resetClock,
  resetEnvCache,
  resetRequestsSettled,
  resetStorage,
  sendLeadDigest,
  servableUpload,
  shareAuthSecret,
  startAfresh,
  startControlChannel,
  startMailWorker,
  startPublisher,
};
