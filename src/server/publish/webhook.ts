import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import type { Db } from '../db/client';
import { appMeta, type PublishJob } from '../db/schema';
import { log } from '../log';
import { attemptsOf, recordAttempt } from './jobs';

export interface WebhookConfig {
  url: string;
  /**
   * Signs each call (REBUILD_WEBHOOK_SECRET): a Standard Webhooks secret (`whsec_` and base64), or
   * any other text, whose bytes are the key.
   */
  secret?: string;
  /**
   * A header that also carries the secret itself (REBUILD_WEBHOOK_SECRET_HEADER), for a host that
   * can only compare a fixed header; unset, only the signature is sent.
   */
  secretHeader?: string;
  /** Calls per batch before it is reported failed. */
  maxAttempts: number;
  /** Wait before the second call; doubled before each further one. */
  backoffMs: number;
  timeoutMs: number;
}

export const WEBHOOK_DEFAULTS = { maxAttempts: 5, backoffMs: 1000, timeoutMs: 15_000 };

/** The signer of a hook's secret: a Standard Webhooks `whsec_` secret, or the bytes of any other text. */
function signerFor(secret: string): Webhook {
  return secret.startsWith('whsec_') ? new Webhook(secret) : new Webhook(new TextEncoder().encode(secret), { format: 'raw' });
}

/**
 * The headers of a call of the hook for `body`. With a secret, the call is signed as Standard
 * Webhooks specifies (the `standardwebhooks` package, which a receiver can verify it with):
 * `webhook-id` names the job (the same on every retry, so a receiver can drop a repeat),
 * `webhook-timestamp` the second of this call, `webhook-signature` the HMAC-SHA256 of the three.
 */
function hookHeaders(
  hook: Pick<WebhookConfig, 'secret' | 'secretHeader'>,
  jobId: number,
  body: string,
  at = new Date(),
): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'procurement-site-publisher' };
  if (!hook.secret) return headers;
  const id = `publish-job-${jobId}`;
  headers['webhook-id'] = id;
  headers['webhook-timestamp'] = String(Math.floor(at.getTime() / 1000));
  headers['webhook-signature'] = signerFor(hook.secret).sign(id, at, body);
  if (hook.secretHeader) headers[hook.secretHeader] = hook.secret;
  return headers;
}

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
      const body = JSON.stringify({ jobId: job.id, reason: job.reason, requestedAt: job.requestedAt.toISOString() });
      const res = await fetch(hook.url, {
        method: 'POST',
        headers: hookHeaders(hook, job.id, body),
        body,
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

/** The site address (SITE_URL) of the last call the hook accepted: the one the host's pages were built for. */
const HOOK_SITE_KEY = 'deploy-hook-site-url';

/** Records `site` as the address the host's pages are built for (after a call the hook accepted). */
export async function recordHookSite(db: Db, site: string): Promise<void> {
  await db
    .insert(appMeta)
    .values({ key: HOOK_SITE_KEY, value: site })
    .onConflictDoUpdate({ target: appMeta.key, set: { value: site } });
}

/** The address the host's pages were last built for; undefined before the hook's first accepted call. */
export async function hookSite(db: Db): Promise<string | undefined> {
  const [row] = await db.select({ value: appMeta.value }).from(appMeta).where(eq(appMeta.key, HOOK_SITE_KEY));
  return typeof row?.value === 'string' ? row.value : undefined;
}
