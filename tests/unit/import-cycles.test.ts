/**
 * `npm run validate` ends with `npm run cycles`: madge, with the TypeScript configuration, over
 * every module of src/. It passes on the tree as it is and fails once an import closes a circle:
 * here the old loop of the publishing code, planted again in a copy of src/server.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const scripts = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
const [bin, ...args] = scripts.cycles!.split(' ');
const copies: string[] = [];

/** The `cycles` script with its last argument (the directory) replaced by `dir`. */
async function cycles(dir: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(path.join('node_modules', '.bin', bin!), [
      ...args.slice(0, -1),
      dir,
      '--no-color',
    ]);
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, output: e.stdout + e.stderr };
  }
}

afterAll(() => {
  for (const dir of copies) fs.rmSync(dir, { recursive: true, force: true });
});

describe('[GATE][CYCLES] no import cycle in src/', () => {
  it('validate runs the check, over src/', () => {
    expect(scripts.validate).toMatch(/&& npm run cycles$/);
    expect(args.at(-1)).toBe('src');
  });

  it('passes on the tree as it is', async () => {
    const { code, output } = await cycles('src');
    expect(output).toContain('No circular dependency found');
    expect(code).toBe(0);
  }, 120_000);

  it('fails on a planted cycle: the web layer importing the publisher again', async () => {
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'cycles-'));
    copies.push(copy);
    fs.cpSync('src/server', path.join(copy, 'server'), { recursive: true });
    const staticSite = path.join(copy, 'server', 'web', 'static-site.ts');
    fs.writeFileSync(staticSite, `import '../publish/go-live';\n${fs.readFileSync(staticSite, 'utf8')}`);
    const { code, output } = await cycles(copy);
    expect(code).toBe(1);
    expect(output).toMatch(/Found \d+ circular dependenc/);
    expect(output).toMatch(/web\/static-site\.ts > .*publish\/go-live\.ts|publish\/go-live\.ts > .*web\/static-site\.ts/);
  }, 120_000);
});
