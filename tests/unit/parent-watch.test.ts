import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('[START] the server stops with the npm process that started it', () => {
  it('a server under sh stops by itself once sh is killed (as npm → sh → node is)', async () => {
    // The child follows its parent, then prints its PID (so sh is not killed before the child has
    // read which process its parent is), says when it stops, and would otherwise run for a minute.
    const script = `
      import { stopWithParent } from './src/server/parent-watch.ts';
      stopWithParent((reason) => { console.log('stopping: ' + reason); process.exit(0); }, 100);
      console.log('pid ' + process.pid);
      setTimeout(() => {}, 60_000);`;
    const sh = spawn('sh', ['-c', `"${process.execPath}" --import tsx --input-type=module -e "$0"; true`, script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    const seen = (text: string, ms: number) =>
      new Promise<boolean>((resolve) => {
        const end = Date.now() + ms;
        const check = () => (out.includes(text) ? resolve(true) : Date.now() > end ? resolve(false) : setTimeout(check, 50));
        check();
      });
    sh.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    expect(await seen('pid ', 15_000)).toBe(true);
    expect(out).not.toContain('stopping');
    // The pipe stays open to us after sh is gone: the orphaned server's own words arrive here.
    sh.kill('SIGKILL');
    expect(await seen('stopping: parent exited', 10_000)).toBe(true);
  }, 30_000);
});
