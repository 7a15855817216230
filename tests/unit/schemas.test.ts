import { describe, expect, it } from 'vitest';
import { aboutFormSchema, contentPatchSchema, introSchema, joinAbout, splitAbout, stripIntroMarkup } from '#shared/schemas/content.ts';
import { NO_FILE_UPLOADED, cleanFileName, documentPatchSchema, documentSchema } from '#shared/schemas/document.ts';
import { aboutFeatureSchema, featurePatchSchema, featureSchema } from '#shared/schemas/feature.ts';
import { isSafeLink, isSafeUrl } from '#shared/schemas/fields.ts';
import { headerCtaSchema } from '#shared/schemas/header-cta.ts';
import { insightPatchSchema, insightSchema, normalizeSlug, slugFromTitle } from '#shared/schemas/insight.ts';
import { servicePatchSchema, serviceSchema } from '#shared/schemas/service.ts';

const firstMessage = (r: { success: boolean; error?: { issues: { message: string }[] } }) => r.error?.issues[0]?.message;

describe('[SCHEMAS] links and URLs', () => {
  it.each(['https://example.com', 'http://x.io/a?b=c', '/contact', '#contact-form', './a', 'mailto:a@b.co', 'tel:+1 (555) 010-0100'])(
    'accepts link %s',
    (v) => expect(isSafeLink(v)).toBe(true),
  );
  it.each([
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    'data:text/html,x',
    '//evil.example',
    'ftp://x',
    'contact',
    'https://',
    'mailto:nobody',
    ' /x',
  ])('refuses link %s', (v) => expect(isSafeLink(v)).toBe(false));
  it('image URLs: http(s) and relative only', () => {
    expect(isSafeUrl('/images/logo.svg')).toBe(true);
    expect(isSafeUrl('https://cdn.example.com/a.png')).toBe(true);
    expect(isSafeUrl('mailto:a@b.co')).toBe(false);
  });
});

describe('[SCHEMAS] patch variants', () => {
  it('a patch applies no defaults (a title edit must not reset the order or the active flag)', () => {
    expect(servicePatchSchema.parse({ title: 'x' })).toEqual({ title: 'x' });
    expect(featurePatchSchema('home').parse({ title: 'x', version: 3 })).toEqual({ title: 'x', version: 3 });
    expect(insightPatchSchema.parse({ isPublished: true })).toEqual({ isPublished: true });
    expect(contentPatchSchema('about_mission').parse({ content: 'Long enough text' })).toEqual({ content: 'Long enough text' });
  });
  it('a patch still validates the fields it carries', () => {
    expect(firstMessage(servicePatchSchema.safeParse({ title: '' }))).toBe('Service name is required');
    expect(firstMessage(insightPatchSchema.safeParse({ excerpt: 'short' }))).toBe('Summary must be at least 10 characters');
  });
  it('create variants fill the spec defaults', () => {
    expect(
      insightSchema.parse({ title: 'T', slug: 't', excerpt: 'x'.repeat(10), content: 'y'.repeat(50), authorName: 'A', authorTitle: 'B' }),
    ).toMatchObject({
      category: 'industry_spotlights',
      readMinutes: 5,
      isPublished: false,
      tags: [],
    });
    expect(headerCtaSchema.parse({ buttonText: 'Go', buttonLink: '/contact' })).toMatchObject({ buttonStyle: 'primary', isVisible: true });
    expect(serviceSchema.parse({ title: 'S', description: 'D', icon: 'cog' }).displayOrder).toBeUndefined();
  });
});

describe('[SCHEMAS] insight rules', () => {
  it('slug normalisation while typing: spaces to hyphens, other symbols dropped', () => {
    expect(normalizeSlug('My Post: Part 2!')).toBe('my-post-part-2');
  });
  it('slug generated from a title', () => {
    expect(slugFromTitle('  Reducing Costs — A Guide! ')).toBe('reducing-costs-a-guide');
  });
  it('tags: comma-separated, trimmed, empties dropped', () => {
    const parsed = insightPatchSchema.parse({ tags: ' a, b ,, c ,' });
    expect(parsed.tags).toEqual(['a', 'b', 'c']);
  });
  it('read minutes must be a whole number ≥ 1', () => {
    expect(firstMessage(insightPatchSchema.safeParse({ readMinutes: 0 }))).toBe('Read time must be a whole number of at least 1');
    expect(insightPatchSchema.parse({ readMinutes: '7' }).readMinutes).toBe(7);
  });
});

describe('[SCHEMAS] content rules', () => {
  it('intro: tags and nbsp stripped', () => {
    expect(stripIntroMarkup('<P>One&nbsp;two</P>\u00a0<span class="a">three</span>')).toBe('One two three');
    expect(introSchema.parse({ title: 'T', content: '<div>Hi</div>' }).content).toBe('Hi');
  });
  it('about: subtitle required in the form; joined and split at the first blank line', () => {
    expect(firstMessage(aboutFormSchema.safeParse({ title: 'About', subtitle: '', content: 'Long enough body' }))).toBe(
      'Subtitle is required',
    );
    const joined = joinAbout(' Sub ', ' Body one.\n\nBody two. ');
    expect(joined).toBe('Sub\n\nBody one.\n\nBody two.');
    expect(splitAbout(joined)).toEqual({ subtitle: 'Sub', body: 'Body one.\n\nBody two.' });
    expect(splitAbout('Only a line')).toEqual({ subtitle: 'Only a line', body: '' });
  });
  it('feature descriptions: required on home cards, 10+ characters on about cards', () => {
    expect(firstMessage(featureSchema.safeParse({ title: 'T', description: '', icon: 'i' }))).toBe('Description is required');
    expect(firstMessage(aboutFeatureSchema.safeParse({ title: 'T', description: 'short', icon: 'i' }))).toBe(
      'Description must be at least 10 characters',
    );
  });
});

describe('[SECURITY] links that browsers resolve off-site', () => {
  it.each(['/\\evil.example', '/\\/evil.example', '\\\\evil.example', 'https://example.gov\\@evil.example'])('refuses %s', (link) => {
    expect(isSafeLink(link)).toBe(false);
    expect(isSafeUrl(link)).toBe(false);
  });
  it.each(['/contact', '/services/federal?x=1#top', 'https://sam.gov/', 'mailto:a@b.gov', 'tel:+1 555 0100'])('accepts %s', (link) => {
    expect(isSafeLink(link)).toBe(true);
  });
});

describe('[SCHEMAS] documents', () => {
  const doc = { title: 'Capability Statement', category: 'capability', filePath: '/uploads/documents/a.pdf' };

  it('defaults: active, order 0; a non-numeric order becomes 0, a negative one is refused', () => {
    expect(documentSchema.parse(doc)).toMatchObject({ isActive: true, displayOrder: 0, description: null });
    expect(documentSchema.parse({ ...doc, displayOrder: 'first' }).displayOrder).toBe(0);
    expect(documentSchema.parse({ ...doc, displayOrder: '4' }).displayOrder).toBe(4);
    expect(firstMessage(documentSchema.safeParse({ ...doc, displayOrder: -1 }))).toBe('Display order must be a whole number of 0 or more');
  });

  it('the spec messages: title, category, missing file', () => {
    expect(firstMessage(documentSchema.safeParse({ ...doc, title: ' ' }))).toBe('Title is required');
    expect(firstMessage(documentSchema.safeParse({ ...doc, category: '' }))).toBe('Category is required');
    expect(firstMessage(documentSchema.safeParse({ ...doc, filePath: undefined }))).toBe(NO_FILE_UPLOADED);
    expect(firstMessage(documentSchema.safeParse({ ...doc, filePath: '' }))).toBe(NO_FILE_UPLOADED);
  });

  it('the patch takes metadata only and leaves absent fields alone', () => {
    expect(documentPatchSchema.parse({ isActive: false, filePath: '/x.pdf', version: 2 })).toEqual({ isActive: false, version: 2 });
  });

  it.each([
    ['../../etc/passwd', 'passwd.pdf'],
    ['C:\\Users\\me\\Q3 Brochure.PDF', 'Q3 Brochure.pdf'],
    ['.htaccess', 'htaccess.pdf'],
    ['a\u0007b\u0085\nc.pdf', 'abc.pdf'],
    ['', 'Fallback Title.pdf'],
    ['.pdf', 'Fallback Title.pdf'],
    ['x'.repeat(300) + '.pdf', 'x'.repeat(251) + '.pdf'],
  ])('file name %j is offered as %j', (raw, clean) => {
    expect(cleanFileName(raw, 'Fallback Title')).toBe(clean);
  });
});
