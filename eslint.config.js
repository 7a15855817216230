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
 * The rooms inside src/server, and the one way their imports go (`npm run cycles`, madge in
 * `npm run validate`, refuses any import circle left between single files):
 *
 *   services → content, db    A service saves, then records that content changed
 *                             (content/changes.ts): it knows nothing of publishing.
 *   publish  → content, db, and of web only live-site.ts, static-site.ts and the renderer's type
 *              (astro-entry.ts): it subscribes to changes, renders, and hands a finished
 *              release to the web layer.
 *   web      → services, content, db, never publish: it serves the live release.
 *
 * content (the content visitors see: its reads, snapshot, routes and change events) imports no
 * service, publisher or web module. Inside db: client.ts → backup.ts → types.ts (backup.ts does not
 * import client.ts). Inside storage: storage.ts → the drivers (local-disk.ts, vercel-blob.ts) →
 * file-storage.ts (a driver does not import storage.ts). Storage imports none of the rooms that
 * use it; db imports neither publish nor web (services/seed.ts makes the first rows, from above).
 */
const room = (dirs) => `^(#server/(${dirs})/|\\.\\.?/(\\.\\./)*(${dirs})/)`;
const NO_PUBLISH = {
  regex: room('publish'),
  message: 'Only the publisher imports publish/: record a change (content/changes.ts) instead.',
};
const NO_WEB = { regex: room('web'), message: 'The web layer is above this room: it is never imported from here.' };
const NO_SERVICES = { regex: room('services'), message: 'services/ are above this room: they are never imported from here.' };
const NO_CONTENT = { regex: room('content'), message: 'content/ is above this room: it is never imported from here.' };
const WEB_INTERNALS = {
  regex: '^(#server/web/|\\.\\./(\\.\\./)*web/)(?!(live-site|static-site|astro-entry)(\\.ts)?$)',
  message: 'The publisher hands releases to web/live-site.ts (files: web/static-site.ts) and imports no other web module.',
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

const ROOMS = [
  { name: 'rooms/services', files: ['src/server/services/**'], rules: server(NO_PUBLISH, NO_WEB) },
  { name: 'rooms/content', files: ['src/server/content/**'], rules: server(NO_SERVICES, NO_PUBLISH, NO_WEB) },
  { name: 'rooms/publish', files: ['src/server/publish/**'], rules: server(NO_SERVICES, WEB_INTERNALS) },
  { name: 'rooms/web', files: ['src/server/web/**'], rules: server(NO_PUBLISH) },
  { name: 'rooms/db', files: ['src/server/db/**'], rules: server(NO_PUBLISH, NO_WEB) },
  { name: 'rooms/db-backup', files: ['src/server/db/backup.ts', 'src/server/db/types.ts'], rules: server(NO_PUBLISH, NO_WEB, DB_CLIENT) },
  {
    name: 'rooms/storage',
    files: ['src/server/storage/**'],
    rules: server(NO_SERVICES, NO_CONTENT, NO_PUBLISH, NO_WEB, { regex: room('db'), message: 'Storage keeps files, never rows.' }),
  },
  {
    name: 'rooms/storage-drivers',
    files: ['src/server/storage/local-disk.ts', 'src/server/storage/vercel-blob.ts', 'src/server/storage/file-storage.ts'],
    rules: server(
      NO_SERVICES,
      NO_CONTENT,
      NO_PUBLISH,
      NO_WEB,
      { regex: room('db'), message: 'Storage keeps files, never rows.' },
      STORAGE_CHOICE,
    ),
  },
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
