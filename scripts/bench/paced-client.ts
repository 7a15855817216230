/**
 * A paced client in a process of its own: `node --import tsx paced-client.ts <url> <rps> <seconds>
 * [header: value]…` sends GETs at that rate and prints its tally (shared.ts) as JSON. A benchmark
 * that times one client's answers while it does other work itself (polls, downloads, a filled
 * database's garbage) runs that client here, so the latencies are the server's and not the
 * benchmark's own pauses. `npm run bench` skips this module: it has no `run`.
 */
import { spawn } from 'node:child_process';
import { newTally, paced, type Tally } from './shared';

/** Runs a paced client in a child process and returns its tally. */
export function pacedInChild(url: string, rps: number, seconds: number, headers: Record<string, string> = {}): Promise<Tally> {
  const args = ['--import', 'tsx', import.meta.filename, url, String(rps), String(seconds)];
  for (const [k, v] of Object.entries(headers)) args.push(`${k}: ${v}`);
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as Tally) : reject(new Error(`paced client exited with ${code}`))));
  });
}

if (process.argv[1] === import.meta.filename) {
  const [url, rps, seconds, ...headerArgs] = process.argv.slice(2);
  const headers = Object.fromEntries(headerArgs.map((h) => [h.slice(0, h.indexOf(':')), h.slice(h.indexOf(':') + 1).trim()]));
  const tally = newTally();
  await paced(Number(rps), Number(seconds), () => fetch(url!, { headers }), tally);
  process.stdout.write(JSON.stringify(tally));
}
