import { defineConfig, devices } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 4399);
const baseURL = `http://localhost:${PORT}`;

/** Debian's Chromium, never a downloaded browser (as root it needs --no-sandbox; without the background-networking flags it tries to reach Google's hosts). */
const chromium = {
  ...devices['Desktop Chrome'],
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
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
  timeout: 30_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.TEST_REPORT_DIR
    ? [['list'], ['json', { outputFile: `${process.env.TEST_REPORT_DIR}/${process.env.TEST_REPORT_PREFIX ?? ''}playwright.json` }]]
    : [['list']],
  use: { baseURL, trace: 'retain-on-failure' },
  projects: [
    // Listed first, so with one worker it runs before any spec edits the seeded content.
    {
      name: 'screenshots',
      use: chromium,
      testMatch: /site-screenshots\.spec\.ts$/,
      snapshotPathTemplate: '{testDir}/__screenshots__/{arg}{ext}',
    },
    { name: 'chromium', use: chromium, testIgnore: /site-screenshots\.spec\.ts$/ },
  ],
  webServer: {
    command: 'node --import tsx tests/e2e/serve.ts',
    url: `${baseURL}/api/content/header/active`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    env: { PORT: String(PORT), SITE_URL: baseURL },
  },
});
