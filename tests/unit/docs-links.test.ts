import fs from 'node:fs';
import path from 'node:path';
import GithubSlugger from 'github-slugger';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { toString } from 'mdast-util-to-string';
import { gfm } from 'micromark-extension-gfm';
import { describe, expect, it } from 'vitest';
import { ENV_VARIABLES } from '#server/env.ts';

/*
 * Every relative link of the README and docs/ names a file that exists and, when it has an
 * anchor into a Markdown file, a heading of that file (slugged as GitHub slugs headings).
 * Links with a scheme (https:, mailto:) are not followed.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');

/** What this test reads of a Markdown syntax tree node. */
interface MdNode {
  type: string;
  url?: string;
  children?: MdNode[];
}

const parse = (text: string): MdNode => fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });

function* walk(node: MdNode): Generator<MdNode> {
  yield node;
  for (const child of node.children ?? []) yield* walk(child);
}

/** The headings of each text as anchors, parsed once per text (a long page links into the same few files many times). */
const anchorsOf = new Map<string, Set<string>>();
function anchors(text: string): Set<string> {
  let found = anchorsOf.get(text);
  if (found) return found;
  const slugger = new GithubSlugger();
  found = new Set<string>();
  for (const node of walk(parse(text))) if (node.type === 'heading') found.add(slugger.slug(toString(node)));
  anchorsOf.set(text, found);
  return found;
}

/** The links of `text` (a file at `file`) whose target file or heading does not exist. */
function brokenLinks(file: string, text: string, read = (f: string) => fs.readFileSync(f, 'utf8')): string[] {
  const broken: string[] = [];
  for (const node of walk(parse(text))) {
    if (node.type !== 'link' && node.type !== 'image' && node.type !== 'definition') continue;
    const url = node.url ?? '';
    if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//')) continue;
    const [target = '', anchor] = url.split('#', 2);
    const resolved = target ? path.resolve(path.dirname(file), decodeURIComponent(target)) : file;
    if (target && !fs.existsSync(resolved)) {
      broken.push(`${url} (no such file)`);
      continue;
    }
    if (anchor && resolved.endsWith('.md') && !anchors(resolved === file ? text : read(resolved)).has(decodeURIComponent(anchor))) {
      broken.push(`${url} (no such heading)`);
    }
  }
  return broken;
}

const docs = fs
  .readdirSync(path.join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.md'))
  .map((f) => path.join('docs', f));
const files = ['README.md', ...docs].sort();

describe('[DOCS] links', () => {
  it.each(files)('every relative link of %s resolves', (rel) => {
    const file = path.join(ROOT, rel);
    expect(brokenLinks(file, fs.readFileSync(file, 'utf8'))).toEqual([]);
  });

  it('finds a missing file, a missing heading and a bad anchor in the same file', () => {
    const file = path.join(ROOT, 'docs', 'planted.md');
    const text = [
      '# Planted page',
      '## Two words',
      '[ok](#two-words) [ok too](../README.md#two-commands) [ok, a folder file](decisions/README.md)',
      '[gone](no-such-page.md) [no heading](../README.md#no-such-heading) [no anchor](#three-words)',
      '[external](https://example.com/x.md) `[in code](nowhere.md)`',
    ].join('\n\n');
    expect(brokenLinks(file, text)).toEqual([
      'no-such-page.md (no such file)',
      '../README.md#no-such-heading (no such heading)',
      '#three-words (no such heading)',
    ]);
  });
});

describe('[DOCS] configuration', () => {
  const reference = fs.readFileSync(path.join(ROOT, 'docs', 'configuration.md'), 'utf8');
  const example = fs.readFileSync(path.join(ROOT, '.env.example'), 'utf8');

  it.each(ENV_VARIABLES)('%s is in docs/configuration.md and .env.example', (name) => {
    expect(reference).toContain(`\`${name}\``);
    // NODE_ENV is set by whoever runs the server, never in a .env file.
    if (name !== 'NODE_ENV') expect(example).toMatch(new RegExp(`^#? ?${name}=`, 'm'));
  });
});
