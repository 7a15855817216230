/**
 * The publishing engine keeps its state in one object per engine (src/server/publish/release-store.ts),
 * never in a module: the rooms it spans (publish/, content/, web/) declare no module-level `let` or
 * `var` and no module-level collection made with `new` (Map, Set, WeakMap, WeakSet, Array) unless
 * typed read-only, so
 * two engines can run side by side in one process. A memo of what is worked out from frozen values
 * goes through content/frozen.ts `memoOfFrozen`, which holds nothing a caller could see change.
 * The few exceptions are named here, each with its reason.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOMS = ['src/server/publish', 'src/server/content', 'src/server/web'];

/** `file:name` → why it may stay. */
const ALLOWED: Record<string, string> = {
  'src/server/content/site-content.ts:staticBuild':
    'the content of a static build (`npm run build:static`), read once for its pages; the server never reaches it',
  'src/server/web/app-server.ts:warnedPeers': 'the peers already warned about, at most five (the HTTP layer, being reworked)',
};

const COLLECTIONS = /^(Map|Set|WeakMap|WeakSet|Array)$/;
const READ_ONLY_TYPE = /^Readonly(Map|Set|Array)\b|^readonly /;

/** The module-level declarations of `file` that hold state: `let`/`var`, or a collection that can change. */
function stateIn(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const list = statement.declarationList;
    const mutableBinding = (list.flags & (ts.NodeFlags.Let | ts.NodeFlags.Const)) !== ts.NodeFlags.Const;
    for (const decl of list.declarations) {
      const name = decl.name.getText(source);
      const init = decl.initializer;
      const collection =
        init !== undefined &&
        ts.isNewExpression(init) &&
        COLLECTIONS.test(init.expression.getText(source)) &&
        !(decl.type && READ_ONLY_TYPE.test(decl.type.getText(source)));
      if (mutableBinding || collection) found.push(`${file}:${name}`);
    }
  }
  return found;
}

function filesIn(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesIn(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}

describe('[PUBLISH][LAYERS] the engine keeps no state in modules', () => {
  it('publish/, content/ and web/ declare no module-level mutable state but the named exceptions', () => {
    const found = ROOMS.flatMap(filesIn).flatMap(stateIn);
    expect(found.filter((key) => !(key in ALLOWED))).toEqual([]);
    // An exception that is gone is taken off the list.
    expect(Object.keys(ALLOWED).filter((key) => !found.includes(key))).toEqual([]);
  });

  it('the rule sees what it is about', () => {
    const probe = path.join(fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'module-state-')), 'probe.ts');
    fs.writeFileSync(
      probe,
      [
        'let a = 1;',
        'const b = new Map<string, number>();',
        'const c: ReadonlySet<string> = new Set(["x"]);',
        'const d = [] as number[];',
        'const e = 2;',
        'var f = 3;',
        'const g = new WeakMap<object, string>();',
      ].join('\n'),
    );
    expect(stateIn(probe).map((key) => key.split(':')[1])).toEqual(['a', 'b', 'f', 'g']);
  });

  it('no registered symbol (`Symbol.for`) ties two copies of a module together anywhere in src/', () => {
    const all = filesIn('src').concat(
      fs
        .readdirSync('src', { recursive: true, encoding: 'utf8' })
        .filter((f) => /\.(astro|tsx|mjs)$/.test(f))
        .map((f) => path.join('src', f)),
    );
    expect(all.filter((file) => fs.readFileSync(file, 'utf8').includes('Symbol.for('))).toEqual([]);
  });
});
