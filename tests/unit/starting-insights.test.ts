import { describe, expect, it } from 'vitest';
import { STARTING_INSIGHTS } from '#server/services/starting-insights.ts';
import { paragraphs } from '#lib/format.ts';
import { insightSchema } from '#shared/schemas/insight.ts';
import { FEATURED_INSIGHT_LINKS } from '#shared/site-config.ts';

const words = (content: string) => content.split(/\s+/).filter(Boolean).length;

describe('[SEED] starting insights', () => {
  it('one published article for each fixed link card on /insights', () => {
    expect(STARTING_INSIGHTS.map((i) => i.slug)).toEqual(FEATURED_INSIGHT_LINKS.map((l) => l.slug));
    expect(STARTING_INSIGHTS.every((i) => i.isPublished)).toBe(true);
  });

  it.each(STARTING_INSIGHTS.map((i) => [i.slug, i] as const))('%s passes the editor schema unchanged', (_slug, article) => {
    const parsed = insightSchema.safeParse(article);
    expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
    expect(parsed.data).toMatchObject(article);
    expect(parsed.data?.featuredImage ?? null).toBeNull();
  });

  it.each(STARTING_INSIGHTS.map((i) => [i.slug, i] as const))(
    '%s: length, read time, excerpt, tags, plain paragraphs',
    (_slug, article) => {
      const count = words(article.content);
      expect(count).toBeGreaterThanOrEqual(700);
      expect(count).toBeLessThanOrEqual(1000);
      expect(article.readMinutes).toBe(Math.ceil(count / 200));
      expect(article.excerpt.length).toBeGreaterThanOrEqual(150);
      expect(article.excerpt.length).toBeLessThanOrEqual(200);
      expect(article.tags.length).toBeGreaterThanOrEqual(3);
      expect(article.tags.length).toBeLessThanOrEqual(5);
      expect(article.authorName).not.toBe('');
      expect(article.authorTitle).not.toBe('');
      expect(Number.isNaN(Date.parse(article.publicationDate))).toBe(false);
      // The detail page renders each line as a paragraph and nothing else: no markup of any kind.
      expect(article.content).not.toMatch(/[<>*#`[\]]/);
      expect(paragraphs(article.content).length).toBeGreaterThanOrEqual(8);
      expect(paragraphs(article.content).every((p) => /^[A-Z][^.]*\./.test(p))).toBe(true);
    },
  );
});
