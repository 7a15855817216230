import { env } from './env';

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = Exclude<keyof typeof LEVELS, 'silent'>;

/**
 * Field names whose values never reach the logs: secrets, session material, and a visitor's
 * personal data (an inquiry's name, e-mail, phone and message are in the database, not the logs).
 */
const REDACTED_KEYS = new Set(
  [
    'password',
    'currentPassword',
    'newPassword',
    'confirmPassword',
    'token',
    'secret',
    'cookie',
    'set-cookie',
    'authorization',
    'code',
    'otp',
    'email',
    'phone',
    'visitorName',
    'visitorMessage',
  ].map((k) => k.toLowerCase()),
);

function write(level: Level, msg: string, fields?: Record<string, unknown>): void {
  let threshold: number;
  try {
    threshold = LEVELS[env().LOG_LEVEL];
  } catch {
    threshold = LEVELS.info;
  }
  if (LEVELS[level] < threshold) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields }, replacer);
  if (level === 'error' || level === 'warn') process.stderr.write(`${line}\n`);
  else process.stdout.write(`${line}\n`);
}

/**
 * A failed query's message carries its parameters, which can be a visitor's name, e-mail or
 * message: logs keep the statement and drop the values.
 */
const redactParams = (text: string | undefined) => text?.replace(/\nparams: [\s\S]*?(?=\n {4}at |$)/, '\nparams: [redacted]');

function replacer(key: string, value: unknown): unknown {
  if (value instanceof Error) return { type: value.name, error: redactParams(value.message), stack: redactParams(value.stack) };
  if (key && REDACTED_KEYS.has(key.toLowerCase()) && value !== null && value !== undefined) return '[redacted]';
  return value;
}

/** One JSON object per line on stdout (warnings and errors on stderr), for any log system to parse. */
export const log = {
  debug: (msg: string, fields?: Record<string, unknown>) => write('debug', msg, fields),
  info: (msg: string, fields?: Record<string, unknown>) => write('info', msg, fields),
  warn: (msg: string, fields?: Record<string, unknown>) => write('warn', msg, fields),
  error: (msg: string, fields?: Record<string, unknown>) => write('error', msg, fields),
};
