/**
 * `npm run bench -- uploads`: the server's resident memory while an administrator uploads eight
 * large images at once (BENCH_UPLOADS_COUNT), on the embedded database and, when DATABASE_URL is
 * set, on Postgres too. The images are distinct 8160 × 6080 pictures (49.6 megapixels, just under
 * the 50-megapixel cap), each under the 5 MB upload limit: JPEGs like photos (smooth shapes with
 * grain) and PNGs (flat blocks). For each of BENCH_UPLOADS_ROUNDS rounds the real server is
 * started as `npm start` runs it (same node flags; on BENCH_UPLOADS_PORT, default 4950), an
 * administrator signs in, and all the uploads go to `POST /api/upload/image` together; the
 * server process's VmRSS (/proc/<pid>/status) is read every 50 ms. Reported per round: the
 * baseline (idle, signed in, before the uploads), the peak, peak − baseline (goal ≤ 150 MB), the
 * memory a few seconds after the last answer, and the upload times.
 */
import crypto from 'node:crypto';
import sharp from 'sharp';
import { adminHeaders, benchServerEnv, median, printByDatabase, rssKb, sleep, startServer } from './shared';

const ADMIN = { username: 'admin', email: 'admin@example.com', password: 'bench-admin-password' };
const COUNT = Number(process.env.BENCH_UPLOADS_COUNT ?? 8);
const ROUNDS = Number(process.env.BENCH_UPLOADS_ROUNDS ?? 3);
const PORT = Number(process.env.BENCH_UPLOADS_PORT ?? 4950);
const GROWTH_GOAL_MB = 150;
const WIDTH = 8160;
const HEIGHT = 6080;

/** Bytes that depend on `seed` only. */
function seeded(seed: string, length: number): Buffer {
  const out = Buffer.alloc(length);
  for (let i = 0; i < length; i += 32) crypto.createHash('sha256').update(`${seed}:${i}`).digest().copy(out, i);
  return out;
}

/** A photo-like JPEG: a coarse random colour field enlarged smoothly, with fine grain (about 4 MB). */
async function photoJpeg(seed: number): Promise<Buffer> {
  const [w, h] = [255, 190];
  const pixels = await sharp(seeded(`jpeg${seed}`, w * h * 3), { raw: { width: w, height: h, channels: 3 } })
    .resize(WIDTH, HEIGHT, { kernel: 'cubic' })
    .raw()
    .toBuffer();
  const grain = seeded(`grain${seed}`, 1 << 20);
  const mask = grain.length - 1;
  for (let i = 0; i < pixels.length; i++) {
    const v = pixels[i]! + (grain[(i + seed * 7919) & mask]! & 7) - 4;
    pixels[i] = v < 0 ? 0 : v > 255 ? 255 : v;
  }
  return sharp(pixels, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
    .jpeg({ quality: 75 })
    .toBuffer();
}

/** A PNG of flat random blocks, 8 × 8 pixels each (about 4 MB). */
async function blockPng(seed: number): Promise<Buffer> {
  const [w, h] = [WIDTH / 8, HEIGHT / 8];
  return sharp(seeded(`png${seed}`, w * h * 3), { raw: { width: w, height: h, channels: 3 } })
    .resize(WIDTH, HEIGHT, { kernel: 'nearest' })
    .png({ compressionLevel: 9 })
    .toBuffer();
}

interface Round {
  baselineMb: number;
  peakMb: number;
  growthMb: number;
  /** A few seconds after the last answer. */
  afterMb: number;
  /** From sending all the uploads until the last answer. */
  allMs: number;
  uploadMs: number[];
  statuses: number[];
}

export interface UploadsBenchResult {
  database: string;
  images: { count: number; width: number; height: number; megabytes: number[] };
  rounds: Round[];
}

async function round(env: NodeJS.ProcessEnv, base: string, images: { bytes: Buffer; name: string }[]): Promise<Round> {
  const { child: server } = await startServer(env);
  try {
    const { cookie } = (await adminHeaders(base, ADMIN)) as { cookie: string };
    await sleep(2000);
    const pid = server.pid!;
    const baselineMb = rssKb(pid) / 1024;
    let peakMb = baselineMb;
    const sampler = setInterval(() => (peakMb = Math.max(peakMb, rssKb(pid) / 1024)), 50);
    const t0 = performance.now();
    const answers = await Promise.all(
      images.map(async ({ bytes, name }) => {
        const form = new FormData();
        form.append('image', new File([new Uint8Array(bytes)], name));
        const res = await fetch(`${base}/api/upload/image`, { method: 'POST', headers: { cookie, origin: base }, body: form });
        const body = (await res.json()) as { success: boolean; message?: string };
        if (!body.success) console.log(`${name}: ${res.status} ${body.message}`);
        return { status: res.status, ms: Math.round(performance.now() - t0) };
      }),
    );
    const allMs = Math.round(performance.now() - t0);
    await sleep(3000);
    clearInterval(sampler);
    const afterMb = rssKb(pid) / 1024;
    return {
      baselineMb: Math.round(baselineMb),
      peakMb: Math.round(peakMb),
      growthMb: Math.round(peakMb - baselineMb),
      afterMb: Math.round(afterMb),
      allMs,
      uploadMs: answers.map((a) => a.ms),
      statuses: answers.map((a) => a.status),
    };
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
  }
}

async function measure(kind: 'pglite' | 'postgres', images: { bytes: Buffer; name: string }[]): Promise<UploadsBenchResult> {
  const saved = process.env.DATABASE_URL;
  if (kind === 'pglite') delete process.env.DATABASE_URL;
  const { env, base, cleanUp } = await benchServerEnv(`bench-uploads${kind === 'postgres' ? '-pg' : ''}`, ADMIN, PORT);
  if (saved !== undefined) process.env.DATABASE_URL = saved;
  env.LOG_LEVEL = 'warn';
  try {
    // A first start on fresh data (migrations, seed, the first release), stopped; each round restarts on it.
    const fresh = await startServer(env);
    fresh.child.kill('SIGTERM');
    await new Promise((r) => fresh.child.once('exit', r));
    const rounds: Round[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const r = await round(env, base, images);
      console.log(
        `${kind} round ${i + 1}: baseline ${r.baselineMb} MB, peak ${r.peakMb} MB, growth ${r.growthMb} MB, ` +
          `${r.afterMb} MB 3 s after; all answered in ${r.allMs} ms (${r.statuses.join(' ')})`,
      );
      rounds.push(r);
    }
    return {
      database: kind,
      images: { count: images.length, width: WIDTH, height: HEIGHT, megabytes: images.map((i) => +(i.bytes.length / 2 ** 20).toFixed(2)) },
      rounds,
    };
  } finally {
    cleanUp();
  }
}

export async function run(): Promise<UploadsBenchResult[]> {
  const t0 = performance.now();
  const images = await Promise.all(
    Array.from({ length: COUNT }, async (_, i) =>
      i % 2 === 0 ? { bytes: await photoJpeg(i), name: `photo-${i}.jpg` } : { bytes: await blockPng(i), name: `blocks-${i}.png` },
    ),
  );
  console.log(
    `${COUNT} images of ${WIDTH} × ${HEIGHT} (${((WIDTH * HEIGHT) / 1e6).toFixed(1)} MP), ` +
      `${images.map((i) => (i.bytes.length / 2 ** 20).toFixed(1)).join(', ')} MB, made in ${Math.round((performance.now() - t0) / 1000)} s`,
  );
  const results = [await measure('pglite', images)];
  if (process.env.DATABASE_URL) results.push(await measure('postgres', images));
  printTable(results);
  return results;
}

function printTable(results: UploadsBenchResult[]): void {
  const mark = (mb: number) => (mb <= GROWTH_GOAL_MB ? 'ok' : 'MISSED');
  const each = (f: (r: Round) => number | string) => (res: UploadsBenchResult) => res.rounds.map(f).join(' / ');
  const rows: [string, (r: UploadsBenchResult) => string][] = [
    ['RSS baseline (MB), each round', each((r) => r.baselineMb)],
    ['RSS peak (MB)', each((r) => r.peakMb)],
    [`RSS growth (MB, goal ≤ ${GROWTH_GOAL_MB})`, each((r) => `${r.growthMb} ${mark(r.growthMb)}`)],
    ['RSS 3 s after the last answer (MB)', each((r) => r.afterMb)],
    [`all ${COUNT} answered (s)`, each((r) => (r.allMs / 1000).toFixed(1))],
    ['answer time from the start, median (s)', each((r) => (median(r.uploadMs) / 1000).toFixed(1))],
  ];
  printByDatabase(results, rows);
}
