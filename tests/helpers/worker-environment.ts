/**
 * The environment a test worker started with, given back to each test file. With `isolate: false`
 * the files of a worker share its process: what one file sets in `process.env` would otherwise
 * still be set for the next.
 */
import { resetEnvCache } from '#server/env.ts';

const worker = globalThis as { workerEnvironment?: Record<string, string | undefined> };
worker.workerEnvironment ??= { ...process.env };
const pristine = worker.workerEnvironment;

/** Gives `process.env` back as the worker started with it, and has it read afresh. */
export function restoreWorkerEnvironment(): void {
  for (const key of Object.keys(process.env)) if (!(key in pristine)) delete process.env[key];
  Object.assign(process.env, pristine);
  resetEnvCache();
}
