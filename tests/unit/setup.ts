/** Run before every unit file (vitest.config.ts `setupFiles`): each starts and leaves with the worker's first environment. */
import { afterAll } from 'vitest';
import { restoreWorkerEnvironment } from '../helpers/worker-environment';

restoreWorkerEnvironment();
afterAll(restoreWorkerEnvironment);
