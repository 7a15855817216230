/**
 * The layer boundaries hold because the linter refuses a forbidden import. Each case lints a real
 * file of the layer, with one forbidden import added, through the project's own ESLint
 * configuration (nothing is written to disk), and expects the boundary rule to refuse it.
 */
import fs from 'node:fs/promises';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/*
 * Only the boundary rule runs, and without type information (which it does not use): parsing every
 * case against the TypeScript project took a minute and a half.
 */
const eslint = new ESLint({
  cwd: process.cwd(),
  ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-imports',
  overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } } },
});

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
  // The rooms inside src/server (eslint.config.js draws the one way their imports go).
  ['services → publish', 'src/server/services/header.ts', "import { publishNow } from '../publish/publisher';"],
  ['services → publish (alias)', 'src/server/services/header.ts', "import { publishNow } from '#server/publish/publisher.ts';"],
  ['services → web', 'src/server/services/header.ts', "import { lookup } from '../web/static-site';"],
  ['content → services', 'src/server/content/site-content.ts', "import { updateHeader } from '../services/header';"],
  ['content → publish', 'src/server/content/changes.ts', "import { startPublisher } from '../publish/publisher';"],
  ['web → publish', 'src/server/web/static-site.ts', "import { buildRelease } from '../publish/releases';"],
  ['web → publish (alias)', 'src/server/web/app-server.ts', "import type { Builder } from '#server/publish/render.ts';"],
  ['publish → web internals', 'src/server/publish/go-live.ts', "import { createAppServer } from '../web/app-server';"],
  ['publish → services', 'src/server/publish/publisher.ts', "import { updateHeader } from '../services/header';"],
  ['db → publish', 'src/server/db/client.ts', "import { publishNow } from '../publish/publisher';"],
  ['db/backup → db/client', 'src/server/db/backup.ts', "import { getDb } from './client';"],
  ['storage → db', 'src/server/storage/storage.ts', "import { getDb } from '../db/client';"],
  ['storage driver → storage choice', 'src/server/storage/local-disk.ts', "import { storage } from './storage';"],
  ['storage contract → storage choice', 'src/server/storage/file-storage.ts', "import { storage } from '#server/storage/storage.ts';"],
  ['services → auth', 'src/server/services/users.ts', "import { requireUser } from '../auth/guard';"],
  [
    'services → capability',
    'src/server/services/capability-statement.ts',
    "import { statementInput } from '../capability/statement-input';",
  ],
  ['capability → services', 'src/server/capability/statement-input.ts', "import { updateHeader } from '#server/services/header.ts';"],
  ['auth → web', 'src/server/auth/guard.ts', "import { sendJson } from '../web/respond';"],
  ['auth → publish', 'src/server/auth/session.ts', "import { publishNow } from '../publish/publisher';"],
  ['publish → auth', 'src/server/publish/publisher.ts', "import { requireUser } from '#server/auth/guard.ts';"],
  ['content → auth', 'src/server/content/reads.ts', "import { requireUser } from '../auth/guard';"],
  ['content → mail', 'src/server/content/changes.ts', "import { enqueueMail } from '../mail/outbox';"],
  ['mail → auth', 'src/server/mail/worker.ts', "import { now } from '../auth/session';"],
  ['mail → content', 'src/server/mail/outbox.ts', "import { recordChange } from '#server/content/changes.ts';"],
  ['mail → services', 'src/server/mail/worker.ts', "import { createUser } from '../services/users';"],
  ['db → services', 'src/server/db/client.ts', "import { seed } from '../services/seed';"],
  ['db → content', 'src/server/db/lock.ts', "import { recordChange } from '#server/content/changes.ts';"],
  ['db → auth', 'src/server/db/client.ts', "import { loadUser } from '../auth/account';"],
  ['db → mail', 'src/server/db/client.ts', "import { enqueueMail } from '../mail/outbox';"],
  ['db/schema → services', 'src/server/db/schema/content.ts', "import { seed } from '../../services/seed';"],
  ['db → storage', 'src/server/db/backup.ts', "import { storage } from '../storage/storage';"],
  ['storage → mail', 'src/server/storage/storage.ts', "import { enqueueMail } from '../mail/outbox';"],
  ['ground → a folder', 'src/server/env.ts', "import { getDb } from './db/client';"],
  ['ground → a folder (alias)', 'src/server/clock.ts', "import { requireUser } from '#server/auth/guard.ts';"],
  ['ground → the top', 'src/server/log.ts', "import { main } from './main';"],
  ['a room → the top', 'src/server/web/app-server.ts', "import { bundleApi } from '../bundle-api';"],
  ['a room → the top (alias)', 'src/server/services/header.ts', "import { readiness } from '#server/health.ts';"],
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
    expect(await boundaryErrors('src/server/services/header.ts', "import { onContentChange } from '../content/changes';")).toEqual([]);
    expect(await boundaryErrors('src/server/publish/follower.ts', "import { LiveSite } from './live-site';")).toEqual([]);
    expect(await boundaryErrors('src/server/publish/follower.ts', "import { lookup } from '#server/web/static-site.ts';")).toEqual([]);
    expect(await boundaryErrors('src/server/db/client.ts', "import { countRows } from './backup';")).toEqual([]);
    expect(await boundaryErrors('src/server/storage/storage.ts', "import { isKey } from './file-storage';")).toEqual([]);
    expect(await boundaryErrors('src/server/auth/session.ts', "import { findUserByLogin } from '../services/users';")).toEqual([]);
    expect(await boundaryErrors('src/server/services/users.ts', "import { now } from '../clock';")).toEqual([]);
    expect(await boundaryErrors('src/server/mail/worker.ts', "import { getDb } from '#server/db/client.ts';")).toEqual([]);
    expect(await boundaryErrors('src/server/main.ts', "import { renderBuilder } from './publish/render';")).toEqual([]);
    expect(await boundaryErrors('src/server/password.ts', "import { log } from './log';")).toEqual([]);
  }, 60_000);
});
