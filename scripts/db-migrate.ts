/** `npm run db:migrate`: applies pending migrations (one transaction) and exits. */
import { getDbHandle } from '#server/db/client.ts';
import { runScript } from './run-script';

runScript(async () => {
  const h = await getDbHandle();
  console.log(`Migrations applied (${h.kind}: ${h.where}).`);
});
