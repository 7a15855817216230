/**
 * Run before every integration file (vitest.config.ts `setupFiles`). The files of a worker share
 * its process and modules (`isolate: false`): the server bundle is imported once per worker, not
 * once per file. So that a file never sees what the one before it changed, each starts, and
 * leaves, with the environment the worker started with, and with what the process remembers of
 * the last database forgotten (`startAfresh`: caches, counters, the clock, the auth secret), in
 * the bundle and in the suite's own copy of the modules that the helpers use.
 */
import { afterAll } from 'vitest';
import { resetClock } from '#server/clock.ts';
import { forgetAuthSecret } from '#server/auth/secret.ts';
import { bundleApi } from '../../helpers/bundle';
import { restoreWorkerEnvironment } from '../../helpers/worker-environment';

function startAfresh(): void {
  restoreWorkerEnvironment();
  resetClock();
  forgetAuthSecret();
  bundleApi.startAfresh();
}

startAfresh();
afterAll(startAfresh);
