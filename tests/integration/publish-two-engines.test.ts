/**
 * An engine's state is the release store it is given (src/server/publish/release-store.ts), not
 * its modules': two engines in one process publish and serve each its own release, and each
 * publishes incrementally from its own last build.
 */
import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deepFreeze } from '#server/content/frozen.ts';
import type { SiteContent } from '#server/content/site-content.ts';
import { compressionSettled, publishContent } from '#server/publish/go-live.ts';
import { ReleaseStore } from '#server/publish/release-store.ts';
import { STARTING_COMPANY } from '#shared/company.ts';
import { content as withData } from './helpers/content-with-data';

const RELEASES = `.releases-test-${process.pid}-two-engines`;

beforeAll(() => {
  process.env.RELEASES_DIR = RELEASES;
});
afterAll(async () => {
  await fs.rm(RELEASES, { recursive: true, force: true });
});

/** The content with data, its company named `legalName` (every page's footer shows it), frozen as a snapshot is. */
const named = (legalName: string) => deepFreeze({ ...withData, company: { ...STARTING_COMPANY, legalName } } as SiteContent);
const about = (store: ReleaseStore) => fs.readFile(store.live.site().get('/about.html')!.path, 'utf8');

describe('[PUBLISH] two engines side by side in one process', () => {
  it('each serves its own release, and each publishes from its own last build', async () => {
    const [one, two] = [new ReleaseStore(), new ReleaseStore()];
    const first = await publishContent(one, named('First Engine LLC'));
    const second = await publishContent(two, named('Second Engine LLC'));
    expect(one.live.release()!.id).toBe(first.id);
    expect(two.live.release()!.id).toBe(second.id);
    expect(await about(one)).toContain('First Engine LLC');
    expect(await about(two)).toContain('Second Engine LLC');
    expect(one.built?.dir).not.toBe(two.built?.dir);

    // A change that only the insights list shows: each engine keeps its own other pages.
    const oneAbout = one.live.site().get('/about.html')!;
    const fewer = deepFreeze({ ...named('First Engine LLC'), insights: withData.insights.slice(1) } as SiteContent);
    await publishContent(one, fewer);
    const kept = one.live.site().get('/about.html')!;
    expect({ ...kept, path: '' }).toEqual({ ...oneAbout, path: '' });
    expect((await fs.stat(kept.path)).ino).toBe((await fs.stat(oneAbout.path)).ino);
    expect(await about(two)).toContain('Second Engine LLC');
    expect(two.live.release()!.id).toBe(second.id);
    await Promise.all([compressionSettled(one), compressionSettled(two)]);
  }, 180_000);
});
