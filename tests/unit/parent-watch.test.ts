import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

/** Is a process with this PID running? An exited one its new parent has not reaped yet (a zombie) is not. */
function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

describe('[START] the server stops with the npm process that started it', () => {
  it('a server under sh stops by itself within a second or two once sh is killed (as npm → sh → node is)', async () => {
    // The child prints its PID, follows its parent, and would otherwise run for a minute.
    const script = `
      import { stopWithParent } from './scripts/parent-watch.ts';
      console.log(process.pid);
      stopWithParent((reason) => { console.error('stopping: ' + reason); process.exit(0); }, 100);
      setTimeout(() => {}, 60_000);`;
    const sh = spawn('sh', ['-c', `"${process.execPath}" --import tsx --input-type=module -e "$0"; true`, script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const pid = Number(await new Promise<string>((resolve) => sh.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim()))));
    expect(alive(pid)).toBe(true);
    sh.kill('SIGKILL');
    const started = Date.now();
    while (alive(pid) && Date.now() - started < 5_000) await new Promise((r) => setTimeout(r, 50));
    expect(alive(pid)).toBe(false);
    expect(Date.now() - started).toBeLessThan(3_000);
  }, 20_000);
});
