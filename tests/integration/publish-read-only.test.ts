/**
 * The engine compares each publish with the last on the rule that what a snapshot holds never
 * changes (an insight row two snapshots share is the same, unchanged object: publish/render.ts).
 * A page that changed the content it renders from (sorting a list in place, say) would break that
 * rule silently: the next publish would compare with a snapshot that is no longer what was read.
 * Such a page fails its publish instead, and the content stays as it was read.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SiteContent } from '#server/content/site-content.ts';
import { renderBuilder } from '#server/publish/render.ts';
import { buildRelease } from '#server/publish/releases.ts';
import { content as withData } from './helpers/content-with-data';
import { renderPage } from '../helpers/bundle';

const RELEASES = `.releases-test-${process.pid}-read-only`;

beforeAll(() => {
  process.env.RELEASES_DIR = RELEASES;
});
afterAll(async () => {
  await fs.rm(RELEASES, { recursive: true, force: true });
});

describe('[PUBLISH] a page cannot change the content it renders from', () => {
  it('a page that sorts a list of the content in place fails the publish loudly, and the content stays as read', async () => {
    const content = JSON.parse(JSON.stringify(withData)) as SiteContent;
    const asRead = JSON.stringify(content);
    expect(content.insights.length).toBeGreaterThan(1);
    // The listing page, as a careless edit might write it: the newest last, sorted in place.
    const sortsInPlace = renderBuilder(async (urlPath, site, recorded) => {
      if (urlPath === '/insights') recorded.insights.sort((a, b) => (a.publicationDate ?? '').localeCompare(b.publicationDate ?? ''));
      return renderPage(urlPath, site, recorded);
    });
    await expect(buildRelease(content, { builder: sortsInPlace })).rejects.toThrow(/read-only/);
    expect(JSON.stringify(content)).toBe(asRead);
    // The failed build left no release behind.
    const left = await fs.readdir(path.resolve(RELEASES)).catch(() => []);
    expect(left).toEqual([]);
  }, 120_000);

  it('so does a page that sets, defines or deletes a field of it', async () => {
    const content = JSON.parse(JSON.stringify(withData)) as SiteContent;
    const asRead = JSON.stringify(content);
    expect(content.headerCta?.buttonText).toBeTruthy();
    const changes: ((c: SiteContent) => void)[] = [
      (c) => void ((c.headerCta as { buttonText: string }).buttonText = 'Changed by a page'),
      (c) => void Object.defineProperty(c.headerCta, 'buttonText', { value: 'Changed by a page' }),
      (c) => void delete (c.headerCta as { buttonText?: string }).buttonText,
    ];
    for (const change of changes) {
      const builder = renderBuilder(async (urlPath, site, recorded) => {
        if (urlPath === '/about') change(recorded);
        return renderPage(urlPath, site, recorded);
      });
      await expect(buildRelease(content, { builder })).rejects.toThrow(/read-only/);
    }
    expect(JSON.stringify(content)).toBe(asRead);
  }, 120_000);
});
