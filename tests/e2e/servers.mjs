/**
 * The end-to-end suite runs its spec files in E2E_WORKERS parallel workers (2 unless set: the suite
 * waits on the browser and the server more than it computes, so on two cores two workers take
 * about two thirds of the time of one for about the same CPU), each against a server of its own: its own port
 * (E2E_PORT + the worker's slot), and a data directory, releases directory and database named
 * after that port (so two suites with different E2E_PORTs can run side by side, as CI runs one
 * per database). Worker
 * processes read their slot from Playwright's TEST_PARALLEL_INDEX; the runner (no slot) starts
 * one server per slot.
 */
import path from 'node:path';

export const E2E_WORKERS = Math.max(1, Number(process.env.E2E_WORKERS ?? 2));
const BASE_PORT = Number(process.env.E2E_PORT ?? 4399);

/** This worker's slot (0 in the runner process). */
/** @returns {number} */
const slot = () => Number(process.env.TEST_PARALLEL_INDEX ?? 0);

/** @param {number} [i] @returns {number} */
export const e2ePort = (i = slot()) => BASE_PORT + i;
/** @param {number} [i] @returns {string} */
export const e2eBaseURL = (i = slot()) => `http://localhost:${e2ePort(i)}`;
/** The server's DATA_DIR (its local mail outbox is `outbox/` in it). @param {number} [i] @returns {string} */
export const e2eDataDir = (i = slot()) => `.e2e-data-${e2ePort(i)}`;
/** @param {number} [i] @returns {string} */
export const e2eReleasesDir = (i = slot()) => `.releases-e2e-${e2ePort(i)}`;
/** Playwright's output (traces of failed tests) for the suite on E2E_PORT. */
export const e2eOutputDir = `test-results/e2e-${BASE_PORT}`;
/** The local mail outbox of this worker's server. @param {number} [i] @returns {string} */
export const e2eOutbox = (i = slot()) => path.resolve(e2eDataDir(i), 'outbox');
