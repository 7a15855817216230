import { defineConfig } from 'vitest/config';
import { LIFTOFF_ONLY } from './tests/helpers/liftoff';
import { SlowFirstSequencer } from './tests/slow-first-sequencer';

// CI asks for machine-readable results as well (.ci/run sums them).
const reportDir = process.env.TEST_REPORT_DIR;
const reportName = `${process.env.TEST_REPORT_PREFIX ?? ''}vitest-${process.env.npm_lifecycle_event ?? 'run'}.json`;

/** The environment of the suites that run the real server (the first admin its seed creates). */
const serverTestEnv = {
  LOG_LEVEL: 'warn',
  SITE_URL: 'http://localhost:4321',
  ADMIN_USERNAME: 'admin',
  ADMIN_EMAIL: 'admin@example.com',
  ADMIN_PASSWORD: 'integration-admin-pw',
  // A real recipient, as a deployment has one: without it every inquiry a suite posts logs that
  // nobody is notified. The suites about recipients unset it.
  CONTACT_NOTIFY_TO: 'leads@harbor-federal-supply.com',
};

/** V8 flags of the processes that run the embedded database (tests/helpers/liftoff.ts). */
const databaseProcessFlags = [...LIFTOFF_ONLY, ...(process.env.PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PROF_DIR}`] : [])];

export default defineConfig({
  test: {
    reporters: reportDir ? ['default', 'json'] : ['default'],
    outputFile: reportDir ? { json: `${reportDir}/${reportName}` } : undefined,
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
          // One process per worker, not per file (tests/unit/setup.ts gives each file the
          // worker's first environment): 55 s of CPU → 45 s.
          isolate: false,
          setupFiles: ['tests/unit/setup.ts'],
          // Vitest's 5 s is too short for a test that parses megabytes beside the rest of CI.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'integration',
          sequence: { groupOrder: 1 },
          include: ['tests/integration/**/*.test.ts'],
          globalSetup: ['tests/integration/helpers/global-setup.ts'],
          setupFiles: ['tests/integration/helpers/file-state.ts'],
          environment: 'node',
          // Each file gets a clean database of its own (a copy of one migrated for the run:
          // helpers/global-setup.ts). The files of a worker share its process and modules
          // (`isolate: false`): the server bundle and the suite's helpers are imported once per
          // worker, not once per file (about 1.3 s of CPU each). What a file changes of the
          // process (the environment, the caches of the last database, the clock) is undone
          // before the next one by helpers/file-state.ts.
          pool: 'forks',
          isolate: false,
          // The server bundle (tests/helpers/bundle.ts) is plain JavaScript that Node imports
          // itself: through vitest's module runner every file paid 3 to 6 s on a busy machine to
          // evaluate it, natively about 0.4 s.
          server: { deps: { external: [/\/dist\/server\//] } },
          testTimeout: 60_000,
          hookTimeout: 180_000,
          maxWorkers: 2,
          execArgv: databaseProcessFlags,
          env: serverTestEnv,
        },
      },
      {
        test: {
          name: 'fault',
          sequence: { groupOrder: 2 },
          include: ['tests/fault/**/*.test.ts'],
          environment: 'node',
          // Servers killed, databases cut off: one file at a time, each in its own process.
          pool: 'forks',
          maxWorkers: 1,
          execArgv: databaseProcessFlags,
          testTimeout: 180_000,
          hookTimeout: 180_000,
          env: serverTestEnv,
        },
      },
    ],
  },
});
