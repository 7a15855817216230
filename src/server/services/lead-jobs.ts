import type { RequestPublish } from '../content/changes';
import { getDb } from '../db/client';
import { log } from '../log';
import { sendLeadDigest } from './lead-digest';
import { watchExpiries } from './expiry-watch';
import { deleteOldSpam } from './spam-retention';
import { rollUpVisits } from './visits';

interface LeadJobs {
  /** The pass made at start, done (it never rejects): the start waits for it, so its log lines come before the ready line. */
  firstPass: Promise<void>;
  stop(): Promise<void>;
}
let started: LeadJobs | undefined;

/**
 * Starts this process's pass over the periodic jobs (npm start): the leads' hourly digest, the
 * daily spam clean-up, the daily roll-up of page views, and the rebuild of the pages when a certification or the SAM registration
 * passes its date (asked for with `publish`), looked at every `intervalMs` (5 minutes) and once at start. Every instance
 * runs the pass; each job records its runs in the database, so exactly one instance does each
 * run. Idempotent.
 */
export function startLeadJobs(opts: { intervalMs?: number; publish: RequestPublish }): LeadJobs {
  if (started) return started;
  let running: Promise<void> | undefined;
  const pass = () =>
    (running ??= (async () => {
      const db = await getDb();
      for (const [name, job] of [
        ['leads digest', () => sendLeadDigest(db)],
        ['spam clean-up', () => deleteOldSpam(db)],
        ['expiry watch', () => watchExpiries(db, opts.publish)],
        ['visits roll-up', () => rollUpVisits(db)],
      ] as const) {
        try {
          const done = await job();
          if (done) log.info(`${name} done`, { ...done });
        } catch (err) {
          log.error(`${name} failed`, { err });
        }
      }
    })()
      .catch((err: unknown) => log.error('lead jobs failed', { err }))
      .finally(() => (running = undefined)));
  const timer = setInterval(() => void pass(), opts.intervalMs ?? 5 * 60_000);
  timer.unref();
  const jobs: LeadJobs = {
    firstPass: pass(),
    stop: async () => {
      clearInterval(timer);
      started = undefined;
      await running;
    },
  };
  started = jobs;
  return jobs;
}
