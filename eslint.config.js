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
    files: ['**/*.tsx'],
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
