import { describe, expect, it } from 'vitest';
import {
  categoryLabel,
  detailReadMinutes,
  excerptOf,
  fileSizeMb,
  formatLongDate,
  listReadMinutes,
  paragraphs,
  splitAboutContent,
} from '#lib/format.ts';
import { splitLines, telHref } from '#lib/lines.ts';

describe('[FORMAT] read time', () => {
  it('list: max(3, ceil(length / 200))', () => {
    expect(listReadMinutes('')).toBe(3);
    expect(listReadMinutes('x'.repeat(600))).toBe(3);
    expect(listReadMinutes('x'.repeat(601))).toBe(4);
    expect(listReadMinutes('x'.repeat(2000))).toBe(10);
  });
  it('detail: the stored readMinutes, else ceil(length / 200)', () => {
    expect(detailReadMinutes(7, 'x'.repeat(10_000))).toBe(7);
    expect(detailReadMinutes(null, 'x'.repeat(201))).toBe(2);
    expect(detailReadMinutes(undefined, 'x'.repeat(200))).toBe(1);
    expect(detailReadMinutes(0, 'x'.repeat(401))).toBe(3);
  });
});

describe('[FORMAT] excerpt', () => {
  it('uses the excerpt when present', () => expect(excerptOf('Short summary', 'x'.repeat(400))).toBe('Short summary'));
  it('falls back to the first 150 characters of the content', () => {
    const content = 'a'.repeat(150) + 'b'.repeat(50);
    expect(excerptOf('', content)).toBe('a'.repeat(150));
    expect(excerptOf(null, content)).toHaveLength(150);
    expect(excerptOf('   ', 'short')).toBe('short');
  });
});

describe('[FORMAT] category label', () => {
  it.each([
    ['industry_spotlights', 'Industry Spotlights'],
    ['market_analysis', 'Market Analysis'],
    ['case_studies', 'Case Studies'],
    ['research', 'Research'],
    ['EXPERT_ADVICE', 'Expert Advice'],
    ['', 'General'],
    [null, 'General'],
    [undefined, 'General'],
    ['___', 'General'],
  ])('%s → %s', (input, label) => expect(categoryLabel(input)).toBe(label));
});

describe('[FORMAT] file size', () => {
  it('bytes / 1024² with one decimal, under 0.1 MB in kilobytes', () => {
    expect(fileSizeMb(1024 * 1024)).toBe('1.0 MB');
    expect(fileSizeMb(20_480)).toBe('20 KB');
    expect(fileSizeMb(100)).toBe('1 KB');
    expect(fileSizeMb(1572864)).toBe('1.5 MB');
    expect(fileSizeMb(52_428_800)).toBe('50.0 MB');
    expect(fileSizeMb(0)).toBe('0 KB');
    expect(fileSizeMb(123_456)).toBe('0.1 MB');
  });
  it('unknown sizes are null', () => {
    expect(fileSizeMb(null)).toBeNull();
    expect(fileSizeMb(undefined)).toBeNull();
    expect(fileSizeMb(Number.NaN)).toBeNull();
  });
});

describe('[FORMAT] contact details', () => {
  it('tel links keep digits and + only', () => {
    expect(telHref('(555) 010-0100')).toBe('tel:5550100100');
    expect(telHref('+1 555.010.0100 ext')).toBe('tel:+15550100100');
  });
  it('multi-line text splits on newlines, blank lines dropped', () => {
    expect(splitLines('Suite 100\nWashington, DC 20001')).toEqual(['Suite 100', 'Washington, DC 20001']);
    expect(splitLines('a\r\n\r\n  b  \n')).toEqual(['a', 'b']);
    expect(splitLines(null)).toEqual([]);
  });
});

describe('[FORMAT] article and about text', () => {
  it('paragraphs split on line breaks and drop blank lines', () => {
    expect(paragraphs('First.\n\nSecond.\nThird.\n\n\n')).toEqual(['First.', 'Second.', 'Third.']);
  });
  it('about content splits at the first blank line into subtitle and body', () => {
    expect(splitAboutContent('Sub\n\nBody one\n\nBody two')).toEqual({ subtitle: 'Sub', body: 'Body one\n\nBody two' });
    expect(splitAboutContent('Sub\r\n  \r\nBody')).toEqual({ subtitle: 'Sub', body: 'Body' });
    expect(splitAboutContent('Only a subtitle')).toEqual({ subtitle: 'Only a subtitle', body: '' });
  });
  it('dates read as en-US long dates in UTC', () => {
    expect(formatLongDate('2026-01-02T23:30:00.000Z')).toBe('January 2, 2026');
    expect(formatLongDate(null)).toBeNull();
    expect(formatLongDate('nonsense')).toBeNull();
  });
});
