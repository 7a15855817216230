import { spawn } from 'node:child_process';
import { expect, request as playwrightRequest, type Browser, type BrowserContext } from '@playwright/test';
import { ADMIN } from '../fixtures';
import { e2ePort } from '../servers.mjs';

export interface OwnServer {
  url: string;
  stop(): Promise<void>;
}

/**
 * An e2e server of a spec's own (tests/e2e/serve.mjs) on a slot far above the parallel workers'
 * (tests/e2e/servers.mjs), so its port, data and database are its own; `env` is added to this
 * process's environment. Resolves once it answers.
 */
export async function startOwnServer(slot: number, env: Record<string, string>): Promise<OwnServer> {
  const url = `http://localhost:${e2ePort(slot)}`;
  const server = spawn(process.execPath, ['tests/e2e/serve.mjs', String(slot)], {
    env: { ...process.env, SITE_URL: url, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = async () => {
    if (server.exitCode !== null) return;
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  };
  try {
    await expect
      .poll(async () => (await fetch(`${url}/api/content/header/active`).catch(() => undefined))?.status, {
        timeout: 200_000,
        intervals: [500],
      })
      .toBe(200);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stop };
}

/** A browser context signed in as the first administrator of the server at `url` (through the API: no sign-in page to load). */
export async function signedInContext(browser: Browser, url: string): Promise<BrowserContext> {
  const api = await playwrightRequest.newContext({ baseURL: url });
  const res = await api.post('/api/login', { data: { username: ADMIN.username, password: ADMIN.password }, headers: { origin: url } });
  expect(res.ok()).toBe(true);
  const storageState = await api.storageState();
  await api.dispose();
  return browser.newContext({ baseURL: url, storageState });
}
