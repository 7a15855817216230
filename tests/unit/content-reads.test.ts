import { describe, expect, it } from 'vitest';
import { findItem, readsChanged, recordReads } from '#server/content/reads.ts';

const content = {
  header: { title: 'Harbor', subtitle: 'Supply' },
  insights: [
    { id: 1, slug: 'one', title: 'One', tags: ['a'] },
    { id: 2, slug: 'two', title: 'Two', tags: [] },
  ],
  company: { naicsCodes: ['423430', '541611'], uei: null as string | null },
};
type Content = typeof content;
const clone = (): Content => JSON.parse(JSON.stringify(content)) as Content;

/** What a page doing `read` depends on: the reads it makes of `content`. */
function readsOf(read: (c: Content) => unknown) {
  const r = recordReads(content);
  read(r.content);
  return r.reads();
}

describe('[PUBLISH][READS] what a page reads of the content', () => {
  it('a field read is recorded; a change of another field is not a change for that page', () => {
    const reads = readsOf((c) => c.header.title);
    const next = clone();
    next.header.subtitle = 'Changed';
    expect(readsChanged(reads, content, next)).toBe(false);
    next.header.title = 'Changed';
    expect(readsChanged(reads, content, next)).toBe(true);
  });

  it('an item is named by its id: moving it in the list does not change what a page read of it', () => {
    const r = recordReads(content);
    const item = findItem(r.content.insights, 'slug', 'two')!;
    expect(item.title).toBe('Two');
    const moved = clone();
    moved.insights.reverse();
    moved.insights.push({ id: 3, slug: 'three', title: 'Three', tags: [] });
    expect(readsChanged(r.reads(), content, moved)).toBe(false);
    const retitled = clone();
    retitled.insights[1]!.title = 'Two, revised';
    expect(readsChanged(r.reads(), content, retitled)).toBe(true);
    // Another item taking the slug is a change too.
    const taken = clone();
    taken.insights[1]!.slug = 'gone';
    taken.insights[0]!.slug = 'two';
    expect(readsChanged(r.reads(), content, taken)).toBe(true);
  });

  it('walking a list depends on its members and their order', () => {
    const reads = readsOf((c) => c.insights.map((i) => i.title));
    const reordered = clone();
    reordered.insights.reverse();
    expect(readsChanged(reads, content, reordered)).toBe(true);
    const added = clone();
    added.insights.push({ id: 3, slug: 'three', title: 'Three', tags: [] });
    expect(readsChanged(reads, content, added)).toBe(true);
    const slugOnly = clone();
    slugOnly.insights[0]!.slug = 'first';
    expect(readsChanged(reads, content, slugOnly)).toBe(false);
  });

  it('a list of plain values, an enumerated object and an absent value are read whole', () => {
    const codes = readsOf((c) => c.company.naicsCodes[0]);
    const next = clone();
    next.company.naicsCodes.push('561210');
    expect(readsChanged(codes, content, next)).toBe(true);
    const spread = readsOf((c) => ({ ...c.header }));
    const sub = clone();
    sub.header.subtitle = 'Changed';
    expect(readsChanged(spread, content, sub)).toBe(true);
    const absent = readsOf((c) => (c.header as Record<string, unknown>).logo);
    const withLogo = clone() as Content & { header: { logo?: string } };
    withLogo.header.logo = '/uploads/logo.svg';
    expect(readsChanged(absent, content, withLogo)).toBe(true);
  });

  it('the recorded content reads as the content', () => {
    const r = recordReads(content);
    expect(JSON.parse(JSON.stringify(r.content))).toEqual(content);
    expect(Array.isArray(r.content.insights)).toBe(true);
    expect(r.content.insights[0]).toBe(r.content.insights[0]);
    expect(findItem(content.insights, 'slug', 'one')).toBe(content.insights[0]);
  });

  it('asking whether a key is there (`in`, `Object.hasOwn`) is a read of that key', () => {
    const asked = readsOf((c) => [Object.hasOwn(c.header, 'logo'), 'subtitle' in c.header]);
    const withLogo = clone() as Content & { header: { logo?: string } };
    withLogo.header.logo = '/uploads/logo.svg';
    expect(readsChanged(asked, content, withLogo)).toBe(true);
    const withoutSubtitle = clone() as Omit<Content, 'header'> & { header: { title: string; subtitle?: string } };
    delete withoutSubtitle.header.subtitle;
    expect(readsChanged(asked, content, withoutSubtitle)).toBe(true);
    const retitled = clone();
    retitled.header.title = 'Changed';
    expect(readsChanged(asked, content, retitled)).toBe(false);
  });

  it('the recorded content cannot be changed: setting, defining or deleting a property throws', () => {
    const r = recordReads(clone());
    const c = r.content as unknown as { header: Record<string, unknown>; insights: { title: string }[] };
    expect(() => void (c.header.title = 'Changed')).toThrow(/read-only/);
    expect(() => Object.defineProperty(c.header, 'logo', { value: 'x' })).toThrow(/read-only/);
    expect(() => delete c.header.subtitle).toThrow(/read-only/);
    expect(() => c.insights.sort((a, b) => b.title.localeCompare(a.title))).toThrow(/read-only/);
    expect(() => c.insights.push({ title: 'Three' })).toThrow(/read-only/);
    expect(() => void (c.insights[0]!.title = 'Changed')).toThrow(/read-only/);
    expect(r.content.header.title).toBe('Harbor');
  });

  it('frozen content (a snapshot) is recorded and read as any other', () => {
    const frozen = clone();
    const freeze = (v: unknown): void => {
      if (typeof v !== 'object' || v === null) return;
      Object.values(v).forEach(freeze);
      Object.freeze(v);
    };
    freeze(frozen);
    const r = recordReads(frozen);
    expect(JSON.parse(JSON.stringify(r.content))).toEqual(content);
    expect(findItem(r.content.insights, 'slug', 'two')?.title).toBe('Two');
    expect(Object.keys(r.content.insights[0]!)).toEqual(['id', 'slug', 'title', 'tags']);
    expect([...r.content.company.naicsCodes]).toEqual(['423430', '541611']);
    expect(() => r.content.insights.reverse()).toThrow(/read-only/);
  });
});
