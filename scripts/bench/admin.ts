/**
 * `npm run bench admin`: the back office's JavaScript, gzip bytes, from the built client
 * (`dist/client`, made by `npm run build`) and the `/admin` page of the live release (made by the
 * server from that build: `npm start` once; RELEASES_DIR, `.releases` by default).
 *
 * - **Initial**: what /admin loads before anything is shown: the page's inline scripts, the React
 *   renderer and the back-office island with every module they import statically.
 * - **Per tab**: each tab's own chunk, and what opening that tab first adds to the initial load
 *   (its chunk and the shared chunks it needs that are not loaded yet). Code loaded only on an
 *   action inside a tab (the password-strength dictionaries on a password change) is listed apart.
 *
 * Goal: initial ≤ 120 KB, each tab ≤ 30 KB (what it adds when opened first).
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const CLIENT = path.join(ROOT, 'dist', 'client');
const INITIAL_BUDGET = 120 * 1024;
const TAB_BUDGET = 30 * 1024;

const gzip = (text: string | Buffer) => zlib.gzipSync(text, { level: 9 }).byteLength;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

function read(file: string): string {
  return fs.readFileSync(path.join(CLIENT, '_astro', file), 'utf8');
}

/** The chunks a chunk imports statically (`import … from "./x.js"`, `import "./x.js"`). */
function staticImports(file: string): string[] {
  return [...read(file).matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)].map((m) => m[1]!);
}

/** The chunks a chunk loads on demand (`import("./x.js")`). */
function dynamicImports(file: string): string[] {
  return [...read(file).matchAll(/import\(\s*"\.\/([^"]+\.js)"\s*\)/g)].map((m) => m[1]!);
}

function closure(entries: string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...entries];
  while (stack.length) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    stack.push(...staticImports(file));
  }
  return seen;
}

const sizeOf = (files: Iterable<string>) => [...files].reduce((sum, f) => sum + gzip(read(f)), 0);

export interface AdminBenchResult {
  initialGzipBytes: number;
  initialFiles: string[];
  inlineScriptGzipBytes: number;
  formGzipBytes: number;
  tabs: { tab: string; chunk: string; ownGzipBytes: number; firstOpenGzipBytes: number; onDemand: { file: string; gzipBytes: number }[] }[];
  budgets: { initial: number; tab: number };
}

export async function run(): Promise<AdminBenchResult> {
  const htmlPath = path.join(ROOT, process.env.RELEASES_DIR ?? '.releases', 'current', 'client', 'admin.html');
  if (!fs.existsSync(htmlPath)) throw new Error(`${htmlPath} is missing: run \`npm run build\`, then \`npm start\` once`);
  const html = fs.readFileSync(htmlPath, 'utf8');
  const urls = [...html.matchAll(/(?:component|renderer)-url="\/_astro\/([^"]+)"/g)].map((m) => m[1]!);
  const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!).join('\n');
  const initial = closure(urls);
  const inlineBytes = inline ? gzip(inline) : 0;
  const initialBytes = sizeOf(initial) + inlineBytes;

  // Each tab's chunk is loaded by a dynamic import from the initial chunks; its name ends in -tab.
  const tabChunks = [...new Set([...initial].flatMap(dynamicImports))].filter((f) => /-tab\.[\w-]+\.js$/.test(f));
  const tabs = tabChunks.map((chunk) => {
    const needed = [...closure([chunk])].filter((f) => !initial.has(f));
    const loaded = new Set([...initial, ...needed]);
    const onDemand = [...new Set(needed.flatMap(dynamicImports))]
      .filter((f) => !loaded.has(f))
      .map((file) => ({ file, gzipBytes: sizeOf([...closure([file])].filter((f) => !loaded.has(f))) }));
    return { tab: chunk.replace(/-tab\..*$/, ''), chunk, ownGzipBytes: gzip(read(chunk)), firstOpenGzipBytes: sizeOf(needed), onDemand };
  });

  // The form code every editor shares (react-hook-form; lazy-form.tsx), loaded by the first Edit, New or Reply.
  const formChunks = [...new Set([...initial].flatMap(dynamicImports))].filter((f) => /^schema-form\./.test(f));
  const formBytes = sizeOf([...closure(formChunks)].filter((f) => !initial.has(f)));

  console.log(
    `initial JavaScript: ${kb(initialBytes)} gzip in ${initial.size} files + inline ${kb(inlineBytes)} (goal ≤ ${kb(INITIAL_BUDGET)})`,
  );
  console.log(`form code, loaded once by the first form opened: ${kb(formBytes)}; each form adds its schema (on demand below)`);
  console.table(
    tabs.map((t) => ({
      tab: t.tab,
      'own chunk': kb(t.ownGzipBytes),
      'added when opened first': kb(t.firstOpenGzipBytes),
      goal: t.firstOpenGzipBytes <= TAB_BUDGET ? 'ok' : `over ${kb(TAB_BUDGET)}`,
      'on demand': t.onDemand.map((d) => `${d.file.replace(/\..*$/, '')} ${kb(d.gzipBytes)}`).join(', '),
    })),
  );
  return {
    initialGzipBytes: initialBytes,
    initialFiles: [...initial],
    inlineScriptGzipBytes: inlineBytes,
    formGzipBytes: formBytes,
    tabs,
    budgets: { initial: INITIAL_BUDGET, tab: TAB_BUDGET },
  };
}
