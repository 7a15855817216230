/** `npm run db:migrate`: applies pending migrations (one transaction), says which (or that none were pending) and exits. */
import { getDbHandle } from '#server/db/client.ts';
import { runScript } from './run-script';

runScript(async () => {
  const h = await getDbHandle();
  const applied = h.applied ?? [];
  if (applied.length === 0) console.log(`Migrations: nothing to apply; the database is up to date (${h.kind}: ${h.where}).`);
  else console.log(`Migrations applied (${h.kind}: ${h.where}): ${applied.join(', ')}.`);
});
