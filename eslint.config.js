import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import astro from 'eslint-plugin-astro';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The layers and what each may not import. A rule here, not a sentence in a guide:
 * tests/unit/layers.test.ts proves that each one fails on a forbidden import.
 */
// Regular expressions, not gitignore patterns: there a leading `#` starts a comment.
const layer = (dirs) => `^(#(${dirs})/|\\.\\.?/(\\.\\./)*(${dirs})/)`;
const ASTRO_VIRTUAL = { regex: '^astro:', message: 'Server code runs under plain Node and Vitest: no astro:* modules.' };
const SERVER = { regex: layer('server'), message: 'Server-only code stays out of this layer.' };
const ADMIN = { regex: layer('admin'), message: 'The back office is never imported by this layer.' };
const UI = {
  regex: layer('components|layouts|lib'),
  message: 'src/shared is imported by browser and server alike: no UI or browser-only modules.',
};
const boundary = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

/*
 * The rooms inside src/server, from the top floor down. A room imports only the floors below it,
 * never its own floor's other rooms nor a floor above (`npm run cycles`, madge in
 * `npm run validate`, refuses any import circle left between single files):
 *
 *   the top     astro-entry.ts (the server bundle's entry) → main.ts, bundle-api.ts, health.ts,
 *               control-channel.ts (the operators' backup channel), parent-watch.ts, shutdown.ts:
 *               they start, stop, lend and report on the server, and may import any room.
 *   publish     subscribes to content changes, renders, and holds the live release (live-site.ts)
 *               that the web layer serves, its files described as web/static-site.ts serves them
 *               (release-files.ts): of web only static-site.ts; never services or auth.
 *   web         the HTTP server: it serves the live release, never imports publish.
 *   auth        sign-in, sessions, two-factor: it uses the services' users, rate limits and audit.
 *   services    capability    A service saves, then records that content changed
 *                             (content/changes.ts): it knows nothing of publishing. The seed
 *                             (services/seed.ts) makes the first rows through the services.
 *   content     mail          content: the content visitors see (its reads, snapshot, routes and
 *                             change events). mail: the outbox and its worker.
 *   db          storage       db: schema, client, migrations, backup. storage: files, never rows.
 *   the ground  every other file of src/server itself: env.ts, paths.ts, log.ts, http.ts, clock.ts,
 *               password.ts, client-ip.ts, trusted-proxies.ts, conditional.ts, after-answer.ts,
 *               preflight.ts, phases.mjs, security-headers.ts, compression.ts, in-flight.ts,
 *               connection-limits.ts. They import no folder of src/server.
 *
 * Inside db: client.ts → backup.ts → types.ts (backup.ts does not import client.ts). Inside
 * storage: storage.ts → the drivers (local-disk.ts, vercel-blob.ts) → file-storage.ts (a driver
 * does not import storage.ts).
 */
const room = (dirs) => `^(#server/(${dirs})/|\\.\\.?/(\\.\\./)*(${dirs})/)`;
const NO_PUBLISH = {
  regex: room('publish'),
  message: 'Only the publisher imports publish/: record a change (content/changes.ts) instead.',
};
const NO_WEB = { regex: room('web'), message: 'The web layer is above this room: it is never imported from here.' };
const NO_SERVICES = { regex: room('services'), message: 'services/ are above this room: they are never imported from here.' };
const NO_CONTENT = { regex: room('content'), message: 'content/ is above this room: it is never imported from here.' };
const NO_AUTH = { regex: room('auth'), message: 'auth/ is above this room: it is never imported from here.' };
/** A room of the same floor, or one above: never imported from here. */
const notBelow = (dir) => ({ regex: room(dir), message: `${dir}/ is not below this room: it is never imported from here.` });
const PUBLISH_INPUT = {
  regex: room('services|auth'),
  message: 'The publisher renders from the content snapshot (content/): it imports neither services/ nor auth/.',
};
const NO_FOLDER = {
  regex: room('publish|web|auth|services|capability|content|mail|db|storage'),
  message: "The ground (src/server's own files) is below every folder of src/server: it imports none.",
};
const TOP_FILES = ['astro-entry', 'main', 'bundle-api', 'health', 'control-channel', 'parent-watch', 'shutdown'];
const TOP = TOP_FILES.map((name) => `src/server/${name}.ts`);
const NO_TOP = {
  regex: `^(#server/|\\./|(\\.\\./)+)(${TOP_FILES.join('|')})(\\.ts)?$`,
  message: `${TOP_FILES.map((name) => `${name}.ts`).join(', ')} are the top: no room imports them.`,
};
const WEB_INTERNALS = {
  regex: '^(#server/web/|\\.\\./(\\.\\./)*web/)(?!static-site(\\.ts)?$)',
  message: 'The publisher describes releases as web/static-site.ts serves them and imports no other web module.',
};
const DB_CLIENT = {
  regex: '^(#server/db/|\\./|\\.\\./db/)client(\\.ts)?$',
  message: 'client.ts imports backup.ts (a backup before migrating): backup.ts takes its types from types.ts.',
};
const STORAGE_CHOICE = {
  regex: '^(#server/storage/|\\./|\\.\\./storage/)storage(\\.ts)?$',
  message: 'storage.ts imports the drivers: a driver takes the contract from file-storage.ts.',
};
const server = (...patterns) => boundary(ASTRO_VIRTUAL, ADMIN, ...patterns);
/** Above content/ and mail/: publish, web, auth, services, capability and the top. */
const ABOVE_CONTENT = [NO_PUBLISH, NO_WEB, NO_AUTH, NO_SERVICES, notBelow('capability'), NO_TOP];
/** Above db/ and storage/: those, and content/ and mail/. */
const ABOVE_DB = [...ABOVE_CONTENT, NO_CONTENT, notBelow('mail')];

const ROOMS = [
  { name: 'rooms/top', files: TOP, rules: server() },
  { name: 'rooms/publish', files: ['src/server/publish/**'], rules: server(PUBLISH_INPUT, WEB_INTERNALS, NO_TOP) },
  { name: 'rooms/web', files: ['src/server/web/**'], rules: server(NO_PUBLISH, NO_TOP) },
  { name: 'rooms/auth', files: ['src/server/auth/**'], rules: server(NO_PUBLISH, NO_WEB, NO_TOP) },
  { name: 'rooms/services', files: ['src/server/services/**'], rules: server(NO_PUBLISH, NO_WEB, NO_AUTH, notBelow('capability'), NO_TOP) },
  {
    name: 'rooms/capability',
    files: ['src/server/capability/**'],
    rules: server(NO_PUBLISH, NO_WEB, NO_AUTH, notBelow('services'), NO_TOP),
  },
  { name: 'rooms/content', files: ['src/server/content/**'], rules: server(...ABOVE_CONTENT, notBelow('mail')) },
  { name: 'rooms/mail', files: ['src/server/mail/**'], rules: server(...ABOVE_CONTENT, notBelow('content')) },
  { name: 'rooms/db', files: ['src/server/db/**'], rules: server(...ABOVE_DB, notBelow('storage')) },
  {
    name: 'rooms/db-backup',
    files: ['src/server/db/backup.ts', 'src/server/db/types.ts'],
    rules: server(...ABOVE_DB, notBelow('storage'), DB_CLIENT),
  },
  {
    name: 'rooms/storage',
    files: ['src/server/storage/**'],
    rules: server(...ABOVE_DB, { regex: room('db'), message: 'Storage keeps files, never rows.' }),
  },
  {
    name: 'rooms/storage-drivers',
    files: ['src/server/storage/local-disk.ts', 'src/server/storage/vercel-blob.ts', 'src/server/storage/file-storage.ts'],
    rules: server(...ABOVE_DB, { regex: room('db'), message: 'Storage keeps files, never rows.' }, STORAGE_CHOICE),
  },
  // Every file of src/server itself that is not the top.
  { name: 'rooms/ground', files: ['src/server/*'], ignores: TOP, rules: server(NO_FOLDER, NO_TOP) },
];

export const LAYERS = [
  { name: 'layers/shared', files: ['src/shared/**'], rules: boundary(ASTRO_VIRTUAL, SERVER, ADMIN, UI) },
  { name: 'layers/server', files: ['src/server/**'], rules: boundary(ASTRO_VIRTUAL, ADMIN) },
  { name: 'layers/admin', files: ['src/admin/**'], rules: boundary(SERVER) },
  {
    name: 'layers/public',
    files: ['src/components/**', 'src/layouts/**', 'src/lib/**', 'src/pages/**'],
    ignores: ['src/pages/admin/**'],
    rules: boundary(ADMIN),
  },
  // Later entries win for the same file: each room repeats the server layer's patterns (`server`).
  ...ROOMS,
];

export default defineConfig(
  {
    ignores: [
      'dist/',
      '.astro/',
      'node_modules/',
      '.releases*/',
      'data/',
      '.*-data/',
      'bench-results/',
      'test-results/',
      'playwright-report/',
      'db/migrations/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    name: 'project/typescript',
    files: ['**/*.{ts,tsx,mts}'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
    },
  },
  {
    name: 'project/globals',
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    name: 'project/react',
    // Hooks kept in a .ts file of their own (`use-*.ts`) follow the rules of hooks too.
    files: ['**/*.tsx', 'src/**/use-*.ts'],
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
    },
  },
  ...astro.configs.recommended,
  ...astro.configs['jsx-a11y-recommended'],
  ...LAYERS,
);
