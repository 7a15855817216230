/**
 * Warnings a test causes on purpose (an SMTP server refusing mail, a deploy hook failing) are what
 * it expects, not news: `expectLogs` keeps those log lines out of the run's output and counts them,
 * so the test can check it caused them. Every other line still goes to standard error, so the
 * output of the integration run shows only surprises.
 */
export interface ExpectedLogs {
  /** How many lines with this `msg` were kept back. */
  count(message: string): number;
  /** Standard error as it was. */
  restore(): void;
}

/** The `msg` of one JSON log line (src/server/log.ts), or undefined for any other text. */
function messageOf(chunk: unknown): string | undefined {
  if (typeof chunk !== 'string' || !chunk.startsWith('{')) return undefined;
  try {
    const { msg } = JSON.parse(chunk) as { msg?: unknown };
    return typeof msg === 'string' ? msg : undefined;
  } catch {
    return undefined;
  }
}

export function expectLogs(...messages: string[]): ExpectedLogs {
  const seen = new Map<string, number>();
  const write = process.stderr.write;
  process.stderr.write = function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]): boolean {
    const msg = messageOf(chunk);
    if (msg !== undefined && messages.includes(msg)) {
      seen.set(msg, (seen.get(msg) ?? 0) + 1);
      return true;
    }
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as typeof process.stderr.write;
  return {
    count: (message) => seen.get(message) ?? 0,
    restore: () => {
      process.stderr.write = write;
    },
  };
}
