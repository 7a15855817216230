/**
 * The markup of every page a release has, as the W3C Nu HTML Checker (vnu.jar, the checker behind
 * validator.w3.org) reads it: the public pages, the not-found pages, the sign-in pages and the
 * back-office shell, rendered by the release builder the server uses from the seeded content (what
 * a new site shows) and from content with what only administrators create (documents, uploaded
 * images, insights with odd text). One java run checks them all: the JVM's start is most of the
 * cost. An error fails the test, except where the checker's CSS grammar lags behind the browsers
 * (KNOWN_CSS_GAPS).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectedFiles } from '#server/content/routes.ts';
import { buildRelease, releaseClientDir } from '#server/publish/releases.ts';
import { content as contentWithData } from './helpers/content-with-data';
import { seededContent } from './helpers/db';

const RELEASES = `.releases-test-${process.pid}`;
const require = createRequire(import.meta.url);
const NU_JAR = require.resolve('vnu-jar/build/dist/vnu.jar');

/**
 * What the checker's CSS grammar does not know yet, in Tailwind's output, and the browsers that
 * support it (the site's stylesheet is inlined in every page, so every page has these).
 */
const KNOWN_CSS_GAPS: { name: string; message: RegExp }[] = [
  // Registered custom properties (CSS Properties and Values API): Chrome and Edge 85, Safari 16.4, Firefox 128.
  { name: '@property', message: /^CSS: Unrecognized at-rule '@property'$/ },
  // A custom property is a <custom-ident>, which transition-property takes; a registered one
  // (@property) transitions in Chrome and Edge 85, Safari 16.4, Firefox 128.
  {
    name: 'transition-property of a custom property',
    message: /^CSS: 'transition-property': '--[\w-]+' is not a 'transition-property' value\.$/,
  },
  // Container queries (`container-type`, `@container`): Chrome and Edge 105, Safari 16, Firefox 110.
  { name: '@container', message: /^CSS: Unrecognized at-rule '@container'$/ },
  { name: 'container', message: /^CSS: 'container(-type|-name)?': Property 'container(-type|-name)?' doesn't exist\.$/ },
  // margin-trim: Safari 16.4. Tailwind names it only in an @supports test, where any property is valid.
  { name: 'margin-trim', message: /^CSS: 'margin-trim': Property 'margin-trim' doesn't exist\.$/ },
  // Gradient interpolation spaces, `linear-gradient(in lab, …)` (CSS Images 4): Chrome and Edge 111,
  // Safari 16.2, Firefox 127. Tailwind names it in an @supports test before using color-mix() gradients.
  { name: 'linear-gradient(in <color space>)', message: /^CSS: 'background-image': ('in' is not a 'color' value|Parse Error)\.$/ },
];

/** The checker's message for the end of a stylesheet it lost track of after an earlier CSS error. */
const TRAILING_CSS_PARSE_ERROR = /^CSS: Parse Error\.$/;

interface NuMessage {
  type: string;
  subType?: string;
  url?: string;
  message: string;
  extract?: string;
  lastLine?: number;
}

/** Runs the checker once over `files`: its messages (errors and non-document errors only). */
function nuCheck(files: string[]): Promise<NuMessage[]> {
  const args = [
    // The checker's own advice is 512k of stack at least; the quick-start compiler (C1 only) needs more.
    '-Xss4m',
    // A short run on two cores: the quick-start compiler and the simplest collector start fastest.
    '-XX:TieredStopAtLevel=1',
    '-XX:+UseSerialGC',
    '-jar',
    NU_JAR,
    '--errors-only',
    '--no-langdetect',
    '--asciiquotes',
    '--format',
    'json',
    '--stdout',
    ...files,
  ];
  return new Promise((resolve, reject) => {
    // Exit status 1 means errors were found: the messages say which.
    execFile('java', args, { maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      try {
        resolve((JSON.parse(stdout) as { messages: NuMessage[] }).messages);
      } catch {
        reject(new Error(`the Nu checker did not answer (java installed? see docs/testing.md): ${err?.message ?? ''}\n${stderr}`));
      }
    });
  });
}

/** The messages that are errors of ours: everything but the known CSS gaps and what follows from them. */
function realErrors(messages: NuMessage[]): NuMessage[] {
  const known = (m: NuMessage) => KNOWN_CSS_GAPS.some((gap) => gap.message.test(m.message));
  const withGaps = new Set(messages.filter(known).map((m) => m.url));
  return messages.filter((m) => !known(m) && !(TRAILING_CSS_PARSE_ERROR.test(m.message) && withGaps.has(m.url)));
}

/** The two releases: which content, the client directory and its pages. */
const releases: { name: string; dir: string; pages: string[] }[] = [];

beforeAll(async () => {
  process.env.RELEASES_DIR = RELEASES;
  let previous;
  for (const [name, content] of [
    ['seeded', await seededContent()],
    ['with data', contentWithData],
  ] as const) {
    previous = await buildRelease(content, { previous });
    releases.push({ name, dir: releaseClientDir(previous.id), pages: expectedFiles(content).filter((f) => f.endsWith('.html')) });
  }
}, 180_000);

afterAll(async () => {
  await fs.rm(RELEASES, { recursive: true, force: true });
});

describe('[SITE][MARKUP] every page as the W3C Nu HTML Checker reads it', () => {
  it('has no error but the checker’s known CSS gaps: public pages, not-found pages, sign-in pages, back-office shell', async () => {
    for (const { pages } of releases) {
      expect(pages).toEqual(expect.arrayContaining(['/index.html', '/contact.html', '/404.html', '/auth.html', '/admin.html']));
    }
    const files = releases.flatMap(({ dir, pages }) => pages.map((f) => path.join(dir, f)));
    const messages = await nuCheck(files);
    const errors = realErrors(messages).map((m) => {
      const file = m.url ? fileURLToPath(m.url) : '';
      const release = releases.find(({ dir }) => file.startsWith(`${dir}${path.sep}`));
      const where = release ? `${release.name}: /${path.relative(release.dir, file)}` : file || '(no file)';
      return `${where}:${m.lastLine ?? '?'} ${m.type}: ${m.message} [${(m.extract ?? '').replace(/\s+/g, ' ').trim()}]`;
    });
    expect(errors).toEqual([]);
    // Every file was read (the checker passes over a file it does not take for HTML without a word):
    // the site's stylesheet, inlined in each page, gives each one the known gaps.
    expect(new Set(messages.map((m) => m.url)).size).toBe(files.length);
  });
});
