import { closeDb } from '#server/db/client.ts';

/** Runs an operator script: closes the database afterwards, and on failure prints one line and exits 1. */
export function runScript(main: () => Promise<void>): void {
  main()
    .then(() => closeDb())
    .catch(async (err: Error) => {
      console.error(`Error: ${err.message}`);
      await closeDb().catch(() => {});
      process.exit(1);
    });
}
