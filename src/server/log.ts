import { env } from './env';

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = Exclude<keyof typeof LEVELS, 'silent'>;

function write(level: Level, msg: string, fields?: Record<string, unknown>): void {
  let threshold: number;
  try {
    threshold = LEVELS[env().LOG_LEVEL];
  } catch {
    threshold = LEVELS.info;
  }
  if (LEVELS[level] < threshold) return;
  const extra = fields ? ' ' + JSON.stringify(fields, errorReplacer) : '';
  const line = `${new Date().toISOString()} ${level.toUpperCase()} ${msg}${extra}`;
  if (level === 'error' || level === 'warn') console.error(line);
  else console.log(line);
}

/**
 * A failed query's message carries its parameters, which can be a visitor's name, e-mail or
 * message: logs keep the statement and drop the values.
 */
const redactParams = (text: string | undefined) => text?.replace(/\nparams: [\s\S]*?(?=\n {4}at |$)/, '\nparams: [redacted]');

function errorReplacer(_key: string, value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: redactParams(value.message), stack: redactParams(value.stack) };
  return value;
}

/** A one-line structured logger; enough for a single service writing to stdout. */
export const log = {
  debug: (msg: string, fields?: Record<string, unknown>) => write('debug', msg, fields),
  info: (msg: string, fields?: Record<string, unknown>) => write('info', msg, fields),
  warn: (msg: string, fields?: Record<string, unknown>) => write('warn', msg, fields),
  error: (msg: string, fields?: Record<string, unknown>) => write('error', msg, fields),
};
