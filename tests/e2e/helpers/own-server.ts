import { spawn } from 'node:child_process';
import { expect } from '@playwright/test';
import { e2ePort } from '../servers';

export interface OwnServer {
  url: string;
  stop(): Promise<void>;
}

/**
 * An e2e server of a spec's own (tests/e2e/serve.ts) on a slot far above the parallel workers'
 * (tests/e2e/servers.ts), so its port, data and database are its own; `env` is added to this
 * process's environment. Resolves once it answers.
 */
export async function startOwnServer(slot: number, env: Record<string, string>): Promise<OwnServer> {
  const url = `http://localhost:${e2ePort(slot)}`;
  const server = spawn(process.execPath, ['--import', 'tsx', 'tests/e2e/serve.ts', String(slot)], {
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
