/** `npm run db:seed`: re-applies any missing default content and the first admin. */
import { closeDb, getDbHandle } from '#server/db/client.ts';
import { announceAdmin, seed } from '#server/db/seed.ts';

getDbHandle()
  .then(async (h) => {
    const result = await seed(h.db);
    console.log(result.inserted.length ? `Seeded: ${result.inserted.join(', ')}` : 'Nothing missing: no rows added.');
    announceAdmin(result);
    await closeDb();
  })
  .catch(async (err: Error) => {
    console.error(`Error: ${err.message}`);
    await closeDb().catch(() => {});
    process.exit(1);
  });
