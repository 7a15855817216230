/** `npm run db:migrate`: applies pending migrations (one transaction) and exits. */
import { closeDb, getDbHandle } from '#server/db/client.ts';

getDbHandle()
  .then(async (h) => {
    console.log(`Migrations applied (${h.kind}: ${h.where}).`);
    await closeDb();
  })
  .catch(async (err: Error) => {
    console.error(`Error: ${err.message}`);
    await closeDb().catch(() => {});
    process.exit(1);
  });
