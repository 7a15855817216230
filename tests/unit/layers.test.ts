/**
 * The layer boundaries hold because the linter refuses a forbidden import. Each case lints a real
 * file of the layer, with one forbidden import added, through the project's own ESLint
 * configuration (nothing is written to disk), and expects the boundary rule to refuse it.
 */
import fs from 'node:fs/promises';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function boundaryErrors(file: string, line: string): Promise<string[]> {
  const source = await fs.readFile(file, 'utf8');
  // In an .astro file the import goes into the frontmatter.
  const code = file.endsWith('.astro') ? source.replace(/^---\n/, `---\n${line}\n`) : `${line}\n${source}`;
  const [result] = await eslint.lintText(code, { filePath: file });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

const FORBIDDEN: [layer: string, file: string, line: string][] = [
  ['shared → server (alias)', 'src/shared/constants.ts', "import { getEnv } from '#server/env.ts';"],
  ['shared → server (relative)', 'src/shared/constants.ts', "import { getEnv } from '../server/env';"],
  ['shared → admin', 'src/shared/constants.ts', "import { AdminApp } from '#admin/admin-app.tsx';"],
  ['shared → astro:*', 'src/shared/constants.ts', "import { getCollection } from 'astro:content';"],
  ['shared → browser UI', 'src/shared/constants.ts', "import { api } from '#lib/api-client.ts';"],
  ['server → astro:*', 'src/server/env.ts', "import { getCollection } from 'astro:content';"],
  ['server → admin', 'src/server/env.ts', "import { AdminApp } from '#admin/admin-app.tsx';"],
  ['admin → server', 'src/admin/admin-app.tsx', "import type { Db } from '#server/db/client.ts';"],
  ['admin → server (relative)', 'src/admin/admin-app.tsx', "import type { Db } from '../server/db/client';"],
  ['public page → admin', 'src/pages/about.astro', "import { AdminApp } from '#admin/admin-app.tsx';"],
  ['island → admin', 'src/components/site/contact-form.tsx', "import { AdminApp } from '#admin/admin-app.tsx';"],
  ['layout → admin', 'src/layouts/SiteLayout.astro', "import { AdminApp } from '../admin/admin-app';"],
];

describe('[GATE][LAYERS] forbidden imports fail the lint', () => {
  it.each(FORBIDDEN)(
    '%s',
    async (_layer, file, line) => {
      expect(await boundaryErrors(file, line)).toHaveLength(1);
    },
    60_000,
  );

  it('the same files as they are, and the imports each layer may make, pass', async () => {
    expect(await boundaryErrors('src/admin/admin-app.tsx', "import type { SessionUser } from '#shared/session.ts';")).toEqual([]);
    expect(await boundaryErrors('src/server/env.ts', "import { LIMITS } from '#shared/constants.ts';")).toEqual([]);
    expect(await boundaryErrors('src/pages/admin/index.astro', "import { AdminApp as A } from '#admin/admin-app.tsx';")).toEqual([]);
  }, 60_000);
});
