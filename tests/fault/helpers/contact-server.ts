/**
 * The server as the fault suite runs it: the server bundle's HTTP layer and Astro endpoints, on
 * the database of the environment (DATA_DIR's embedded database, or DATABASE_URL), without the
 * publisher or the mail worker (nothing here is about them). It prints `listening <port>` once
 * it answers, so the suite can kill it at any moment after.
 */
import { serve } from '../../helpers/bundle';

const { url } = await serve({ seed: 'once' });
console.log(`listening ${new URL(url).port}`);
