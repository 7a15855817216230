/**
 * `npm run bench api`: the public reads of the /api contract under load. Starts the real server
 * (as `npm start` runs it) on its own port and data, twice: with visitors' answers kept in memory
 * until the content changes (the default, src/server/web/public-api-cache.ts) and with
 * PUBLIC_API_CACHE=false (each request through Astro and the database). Each time, every path
 * below gets BENCH_API_RPS (500) requests a second for BENCH_API_SECONDS (10), paced, a browser's
 * `accept-encoding: br`; the goal for `GET /api/insights` is a p99 of at most 10 ms and no error.
 */
import http from 'node:http';
import { benchServerEnv, median, newTally, p99, paced, sleep, startServer, type Tally } from './shared';

const ADMIN = { username: 'admin', email: 'admin@example.com', password: 'bench-admin-password' };
const RPS = Number(process.env.BENCH_API_RPS ?? 500);
const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 10);
const PATHS = ['/api/insights', '/api/services', '/api/content/header/active', '/api/contact-info/active'];

interface PathResult {
  path: string;
  requests: number;
  serverErrors: number;
  p50Ms: number;
  p99Ms: number;
}

export interface ApiBenchResult {
  database: string;
  rps: number;
  seconds: number;
  kept: PathResult[];
  throughAstro: PathResult[];
}

async function measure(cache: boolean): Promise<PathResult[]> {
  const name = `bench-api${cache ? '' : '-astro'}${process.env.DATABASE_URL ? '-pg' : ''}`;
  const { env, base, cleanUp } = await benchServerEnv(name, ADMIN);
  env.LOG_LEVEL = 'warn';
  env.PUBLIC_API_CACHE = cache ? 'true' : 'false';
  const { child: server } = await startServer(env);
  const results: PathResult[] = [];
  try {
    await sleep(2_000);
    // node:http with kept-alive connections: fetch's own work per request would be most of what is measured.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
    for (const path of PATHS) {
      const get = () =>
        new Promise<Response>((resolve, reject) => {
          http
            .get(`${base}${path}`, { agent, headers: { 'accept-encoding': 'br' } }, (res) => {
              res.resume();
              res.on('end', () => resolve(new Response(null, { status: res.statusCode })));
            })
            .on('error', reject);
        });
      // Warm: connections open, the answer made, the JIT past its first runs.
      await paced(RPS, 2, get, newTally());
      const tally: Tally = newTally();
      await paced(RPS, SECONDS, get, tally);
      results.push({
        path,
        requests: tally.requests,
        serverErrors: tally.serverErrors,
        p50Ms: Math.round(median(tally.latencyMs) * 10) / 10,
        p99Ms: Math.round(p99(tally.latencyMs) * 10) / 10,
      });
    }
    agent.destroy();
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    cleanUp();
  }
  return results;
}

export async function run(): Promise<ApiBenchResult> {
  const result: ApiBenchResult = {
    database: process.env.DATABASE_URL ? 'postgres' : 'pglite',
    rps: RPS,
    seconds: SECONDS,
    kept: await measure(true),
    throughAstro: await measure(false),
  };
  console.log(`database ${result.database}; ${RPS} req/s for ${SECONDS} s per path (goal for /api/insights: p99 ≤ 10 ms, 0 errors)`);
  const width = Math.max(...PATHS.map((p) => p.length));
  console.log(`${'path'.padEnd(width)}  kept in memory: p50 / p99 / errors   through Astro: p50 / p99 / errors`);
  for (const [i, kept] of result.kept.entries()) {
    const astro = result.throughAstro[i]!;
    console.log(
      `${kept.path.padEnd(width)}  ${`${kept.p50Ms} / ${kept.p99Ms} ms / ${kept.serverErrors}`.padEnd(35)}  ${astro.p50Ms} / ${astro.p99Ms} ms / ${astro.serverErrors}`,
    );
  }
  return result;
}
