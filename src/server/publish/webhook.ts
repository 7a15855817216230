import type { Db } from '../db/client';
import type { PublishJob } from '../db/schema';
import { log } from '../log';
import { attemptsOf, recordAttempt } from './jobs';

export interface WebhookConfig {
  url: string;
  secret?: string;
  /** The header that carries the secret (REBUILD_WEBHOOK_SECRET_HEADER). */
  secretHeader: string;
  /** Calls per batch before it is reported failed. */
  maxAttempts: number;
  /** Wait before the second call; doubled before each further one. */
  backoffMs: number;
  timeoutMs: number;
}

export const WEBHOOK_DEFAULTS = { maxAttempts: 5, backoffMs: 1000, timeoutMs: 15_000 };

/**
 * Calls the deploy hook (Vercel, Netlify, a CI) once for a coalesced batch: retried with
 * exponential backoff until it answers 2xx, each call recorded in publish_attempt. After a 2xx it
 * is never called again for this job. Answers the number of calls; throws after the last failure.
 */
export async function deliverWebhook(db: Db, job: PublishJob, hook: WebhookConfig, sleep: (ms: number) => Promise<void>): Promise<number> {
  let attempt = (await attemptsOf(db, job.id)).length;
  let lastError = '';
  while (attempt < hook.maxAttempts) {
    attempt++;
    if (attempt > 1) await sleep(hook.backoffMs * 2 ** (attempt - 2));
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'procurement-site-publisher' };
      if (hook.secret) headers[hook.secretHeader] = hook.secret;
      const res = await fetch(hook.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ jobId: job.id, reason: job.reason, requestedAt: job.requestedAt.toISOString() }),
        signal: AbortSignal.timeout(hook.timeoutMs),
        redirect: 'error',
      });
      statusCode = res.status;
      await res.arrayBuffer().catch(() => undefined);
      if (!res.ok) error = `deploy hook answered ${res.status}`;
    } catch (err) {
      error = `deploy hook unreachable: ${(err as Error).message}`;
    }
    await recordAttempt(db, job.id, { attempt, statusCode, error });
    if (!error) return attempt;
    lastError = error;
    log.warn('deploy hook call failed', { job: job.id, attempt, error });
  }
  throw new Error(`${lastError} (after ${attempt} attempt${attempt === 1 ? '' : 's'})`);
}
