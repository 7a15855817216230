import { z } from 'zod';
import { parseTrustedProxies } from './trusted-proxies';

const bool = z
  .enum(['true', 'false', '1', '0'])
  .optional()
  .transform((v) => v === 'true' || v === '1');

/** An https address, or http on this machine only (a provider stand-in in tests). */
const providerUrl = (fallback: string) =>
  z
    .url()
    .refine((u) => {
      const { protocol, hostname } = new URL(u);
      return protocol === 'https:' || (protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(hostname));
    }, 'must be https (http only for localhost or 127.0.0.1)')
    .default(fallback);

const envSchema = z.object({
  NODE_ENV: z.string().optional(),
  /** Postgres connection string; unset means embedded PGlite in DATA_DIR/pglite. */
  DATABASE_URL: z.url().optional(),
  DATA_DIR: z.string().default('./data'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(4321),
  /** The public address of the site (canonical links, feeds, e-mails); unset: http://localhost:$PORT. */
  SITE_URL: z.url().optional(),
  ADMIN_USERNAME: z.string().min(3).max(64).optional(),
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().min(8).max(128).optional(),
  AUTH_SECRET: z.string().min(32).optional(),
  ALLOW_REGISTRATION: bool,
  /** A session ends after this many seconds without a request (the back office warns 2 minutes before). */
  SESSION_IDLE_SECONDS: z.coerce.number().int().min(60).max(43_200).default(1800),
  /** The reverse proxies whose X-Forwarded-* headers are believed (client-ip.ts `parseTrustedProxies`). */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const proxies = parseTrustedProxies(value);
      if (typeof proxies === 'string') {
        ctx.addIssue({ code: 'custom', message: proxies });
        return z.NEVER;
      }
      return proxies;
    }),
  SMTP_URL: z.string().optional(),
  /** The From of every e-mail; unset: the company's legal name <no-reply@localhost>. */
  MAIL_FROM: z.string().optional(),
  CONTACT_NOTIFY_TO: z.string().optional(),
  /** At most this many inquiries an hour are e-mailed one by one; the rest go into the hourly digest. */
  LEAD_NOTIFY_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(20),
  /** Past this many inquiries in 24 hours from one address, its inquiries are kept as suspected spam ('flood'). */
  CONTACT_INBOX_PER_DAY: z.coerce.number().int().min(1).max(1000).default(20),
  /** Suspected spam older than this many days is deleted by a daily job (nothing else is). */
  SPAM_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  REBUILD_WEBHOOK_URL: z.url().optional(),
  /** Signs the hook's calls (Standard Webhooks): a `whsec_` secret is base64 after its prefix. */
  REBUILD_WEBHOOK_SECRET: z
    .string()
    .optional()
    .refine((v) => !v?.startsWith('whsec_') || /^[A-Za-z0-9+/]+={0,2}$/.test(v.slice(6)), 'a whsec_ secret is base64 after whsec_'),
  REBUILD_WEBHOOK_SECRET_HEADER: z.string().optional(),
  /** Lets a static host's build read the published content (GET /api/deploy/snapshot, `Authorization: Bearer`). */
  DEPLOY_TOKEN: z.string().min(32, 'DEPLOY_TOKEN must be at least 32 characters').max(512).optional(),
  BLOB_READ_WRITE_TOKEN: z.string().optional(),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  /** Google's OpenID Connect discovery document: its endpoints, issuer and signing keys. */
  GOOGLE_DISCOVERY_URL: providerUrl('https://accounts.google.com/.well-known/openid-configuration'),
  MICROSOFT_CLIENT_ID: z.string().optional(),
  MICROSOFT_CLIENT_SECRET: z.string().optional(),
  MICROSOFT_TENANT_ID: z.string().optional(),
  /** Microsoft's sign-in authority: {authority}/{tenant}/oauth2/v2.0/… and the issuer {authority}/{tenant}/v2.0. */
  MICROSOFT_AUTHORITY: providerUrl('https://login.microsoftonline.com'),
  /**
   * Answer visitors' reads of the public endpoints from memory until the content changes
   * (src/server/web/public-api-cache.ts); `false` sends each through Astro and the database. Off
   * by itself with Postgres and REBUILD_WEBHOOK_URL, where no instance follows another's publishes.
   */
  PUBLIC_API_CACHE: z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((v) => v !== 'false' && v !== '0'),
  /** Also log plain static requests (pages and assets), one JSON line each. */
  ACCESS_LOG: bool,
  /**
   * Count visits on this server, with no cookie and no script (services/visits.ts): `off` counts
   * nothing, attributes no inquiry and says so on /privacy.
   */
  ANALYTICS: z
    .enum(['on', 'off', 'true', 'false', '1', '0'])
    .optional()
    .transform((v) => v === undefined || v === 'on' || v === 'true' || v === '1'),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
});
export type Env = z.infer<typeof envSchema> & { SITE_URL: string };

/**
 * The variables that are set: `NAME=` (an empty or blank value, as an uncommented line of
 * .env.example gives) means the same as leaving NAME out, for every variable.
 */
function setVariables(source: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(source).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1].trim() !== ''));
}

let cached: Env | undefined;

/** Parses process.env on first use (never at import time, so builds and unit tests need nothing). */
export function env(): Env {
  if (!cached) {
    const parsed = envSchema.safeParse(setVariables(process.env));
    if (!parsed.success) {
      const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
      throw new Error(`Invalid environment configuration:\n${lines.join('\n')}`);
    }
    cached = { ...parsed.data, SITE_URL: parsed.data.SITE_URL ?? currentSiteUrl() };
  }
  return cached;
}

/**
 * SITE_URL as the environment gives it now, with env()'s rules but not its cache: a publish reads
 * it each time, as a static build does.
 */
export function currentSiteUrl(): string {
  return process.env.SITE_URL?.trim() || `http://localhost:${Number(process.env.PORT) || 4321}`;
}

/** Tests change process.env between files; this forgets the parsed copy. */
export function resetEnvCache(): void {
  cached = undefined;
}

/** The names of every setting read here (the configuration reference lists each one). */
export const ENV_VARIABLES: readonly string[] = envSchema.keyof().options;
