/**
 * `npm run build`: the server bundle and its client files (scripts/bundle.ts).
 * `--if-stale` (as `npm test` runs it): builds only when the stamp is not the sources' own.
 */
import { buildServer, bundleIsCurrent } from './bundle';

try {
  if (process.argv.includes('--if-stale') && (await bundleIsCurrent())) {
    console.log('The server bundle was built from these exact sources; not built again.');
  } else {
    await buildServer();
  }
} catch (err) {
  console.error(`Error: ${(err as Error).message}`);
  process.exit(1);
}
