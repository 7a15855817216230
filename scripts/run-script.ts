import type { z } from 'zod';
import { closeDb } from '#server/db/client.ts';
import { loadDotEnv } from '#server/preflight.ts';

/** Runs an operator script with `.env` loaded: closes the database afterwards, and on failure prints one line and exits 1. */
export function runScript(main: () => Promise<void>): void {
  loadDotEnv();
  main()
    .then(() => closeDb())
    .catch(async (err: Error) => {
      console.error(`Error: ${err.message}`);
      await closeDb().catch(() => {});
      process.exit(1);
    });
}

/** The value if the schema accepts it; otherwise an error with the schema's own messages as plain sentences. */
export function checked<T>(schema: z.ZodType<T>, value: unknown, label?: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const messages = parsed.error.issues.map((i) => {
    const where = label ?? (i.path.length ? `--${i.path.join('.')}` : '');
    return where ? `${where}: ${i.message}` : i.message;
  });
  throw new Error(messages.join('; '));
}
