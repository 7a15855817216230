/** `npm run db:seed`: re-applies any missing default content and the first admin. */
import { getDbHandle } from '#server/db/client.ts';
import { announceAdmin, seed } from '#server/services/seed.ts';
import { runScript } from '../scripts/run-script';

runScript(async () => {
  const h = await getDbHandle();
  const result = await seed(h.db);
  console.log(result.inserted.length ? `Seeded: ${result.inserted.join(', ')}` : 'Nothing missing: no rows added.');
  announceAdmin(result);
});
