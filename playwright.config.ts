import { defineConfig, devices } from '@playwright/test';
import { e2eBrowser } from './scripts/test-prerequisites';
import { E2E_WORKERS, e2eBaseURL, e2eOutputDir } from './tests/e2e/servers.mjs';

// Each worker process reads this file too: its baseURL is its own server's (tests/e2e/servers.mjs).
const baseURL = e2eBaseURL();

/**
 * Which specs run where. The browser suite tests pages, islands and the back office, not the
 * database driver: it runs whole on the embedded database (what a new install gets). With
 * DATABASE_URL set (Postgres) it runs only the tests tagged `@db`, those whose behaviour goes
 * through code that differs between the two databases: publishing (advisory lock, LISTEN/NOTIFY,
 * the follower), the inbox's server-side search, paging and counts, article search (pg_trgm), and
 * a sign-in's session rows. `E2E_ALL=1` runs every spec on Postgres as well.
 */
const onPostgres = Boolean(process.env.DATABASE_URL);
const grep = onPostgres && process.env.E2E_ALL !== '1' ? /@db\b/ : undefined;

/**
 * Debian's browser, never a downloaded one: its old headless shell (`chromium-headless-shell`, the
 * same engine at about a quarter of the CPU per page), or Chromium where the shell is absent
 * (CHROMIUM_PATH names another). As root it needs --no-sandbox; without the background-networking
 * flags it tries to reach Google's hosts.
 */
const chromium = {
  ...devices['Desktop Chrome'],
  launchOptions: {
    executablePath: e2eBrowser(),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  },
};

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: e2eOutputDir,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  // Spec files are shared out between the workers; the tests of one file run in order, on one server.
  fullyParallel: false,
  workers: E2E_WORKERS,
  retries: 0,
  grep,
  reporter: process.env.TEST_REPORT_DIR
    ? [['list'], ['json', { outputFile: `${process.env.TEST_REPORT_DIR}/${process.env.TEST_REPORT_PREFIX ?? ''}playwright.json` }]]
    : [['list']],
  // A failed test keeps a screenshot and, unless E2E_TRACE=off, its trace (each action's DOM
  // snapshot, network, console). Recording a trace costs every test about a quarter more browser
  // and worker CPU, so CI (whose traces nobody opens) turns it off. The trace's own screenshots
  // are always off: recording them makes Chromium paint and encode frames all along, several
  // times the browser's CPU on a two-core machine.
  use: {
    baseURL,
    // A click or fill that cannot happen fails in 20 s naming its element (twice an expectation's
    // wait), instead of holding until the test's own timeout says only that time ran out.
    actionTimeout: 20_000,
    trace: { mode: process.env.E2E_TRACE === 'off' ? 'off' : 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
  },
  projects: [
    // Runs before the other specs (a dependency of theirs), on servers nothing has edited yet.
    {
      name: 'screenshots',
      use: chromium,
      testMatch: /site-screenshots\.spec\.ts$/,
      snapshotPathTemplate: '{testDir}/__screenshots__/{arg}{ext}',
    },
    { name: 'chromium', use: chromium, testIgnore: /site-screenshots\.spec\.ts$/, dependencies: ['screenshots'] },
  ],
  webServer: Array.from({ length: E2E_WORKERS }, (_, slot) => ({
    command: `node tests/e2e/serve.mjs ${slot}`,
    url: `${e2eBaseURL(slot)}/api/content/header/active`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'pipe' as const,
    stderr: 'pipe' as const,
    env: { SITE_URL: e2eBaseURL(slot) },
  })),
});
