import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents, insights } from '#server/db/schema/index.ts';
import { STARTING_INSIGHTS } from '#server/services/starting-insights.ts';
import { PUBLIC_CONTENT_SECTIONS } from '#shared/constants.ts';
import { FEATURED_INSIGHT_LINKS } from '#shared/site-config.ts';
import { startTestServer, type TestServer } from './helpers/server';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
  await s.db.insert(insights).values([
    {
      title: 'Published',
      slug: 'published-one',
      excerpt: 'An excerpt here',
      content: 'x'.repeat(60),
      authorName: 'A',
      authorTitle: 'B',
      isPublished: true,
      publicationDate: new Date('2026-01-02'),
    },
    { title: 'Draft', slug: 'draft-one', excerpt: 'An excerpt here', content: 'y'.repeat(60), authorName: 'A', authorTitle: 'B' },
  ]);
  await s.db.insert(documents).values([
    { title: 'Capability', category: 'capability', filePath: '/uploads/cap.pdf', fileName: 'cap.pdf', fileSize: 1048576 },
    { title: 'Hidden', category: 'brochure', filePath: '/uploads/b.pdf', fileName: 'b.pdf', isActive: false },
  ]);
});
afterAll(() => s?.close());

describe('[API][PUBLIC] content sections', () => {
  it.each(PUBLIC_CONTENT_SECTIONS.filter((x) => x !== 'header' && x !== 'header-cta'))(
    'GET /api/content/%s/active answers the seeded block',
    async (section) => {
      const res = await s.request(`/api/content/${section}/active`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('application/json');
      const body = await res.json();
      expect(body.section).toBe(section);
      expect(body.isActive).toBe(true);
      expect(body.active).toBe(true);
      expect(typeof body.title).toBe('string');
    },
  );

  it('header answers title, subtitle and logoLight in camelCase', async () => {
    const body = await (await s.request('/api/content/header/active')).json();
    expect(body).toMatchObject({ title: expect.any(String), subtitle: expect.any(String), logoLight: '/images/logo.svg' });
    expect(body).not.toHaveProperty('logo_light');
  });

  it('header-cta answers isVisible, buttonText and buttonLink', async () => {
    const body = await (await s.request('/api/content/header-cta/active')).json();
    expect(body).toMatchObject({ isVisible: true, buttonText: 'Request Quick Quote', buttonLink: '/contact', buttonStyle: 'primary' });
  });

  it('unknown section is a 404 with a JSON message', async () => {
    const res = await s.request('/api/content/nonsense/active');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'Unknown content section: nonsense' });
  });
});

describe('[API][PUBLIC] lists', () => {
  it('features: the three default home cards, by displayOrder', async () => {
    const body = await (await s.request('/api/features')).json();
    expect(body.map((f: { title: string }) => f.title)).toEqual(['Expert Leadership', 'Tailored Solutions', 'Measurable Results']);
  });

  it('about-features: the three why-choose-us cards', async () => {
    const body = await (await s.request('/api/about-features')).json();
    expect(body.map((f: { title: string }) => f.title)).toEqual(['Certified Experts', 'Industry Expertise', 'Results-Driven']);
    expect(body.every((f: { section: string }) => f.section === 'about')).toBe(true);
  });

  it('services: the three defaults', async () => {
    const body = await (await s.request('/api/services')).json();
    expect(body).toHaveLength(3);
    expect(body[0]).toMatchObject({ title: 'Procurement Strategy Development', displayOrder: 0, isActive: true });
  });

  it('insights: published only, newest first (the starting articles included)', async () => {
    const body = await (await s.request('/api/insights')).json();
    expect(body.map((i: { slug: string }) => i.slug)).toEqual(['published-one', ...STARTING_INSIGHTS.map((i) => i.slug)]);
    expect(body[0].publicationDate).toBe('2026-01-02T00:00:00.000Z');
    expect(body[0].tags).toEqual([]);
    // [RELIABILITY] Without their text: each article's page has it.
    for (const item of body) expect(item).not.toHaveProperty('content');
    expect(body[0]).toMatchObject({ title: expect.any(String), excerpt: expect.any(String), slug: 'published-one' });
  });

  it('insights: the seed published one article for each fixed link card on /insights', async () => {
    const body: { slug: string; title: string; isPublished: boolean; featuredImage: string | null; readMinutes: number }[] = await (
      await s.request('/api/insights')
    ).json();
    for (const link of FEATURED_INSIGHT_LINKS) {
      const article = body.find((i) => i.slug === link.slug);
      const expected = STARTING_INSIGHTS.find((i) => i.slug === link.slug)!;
      expect(article).toMatchObject({ title: expected.title, isPublished: true, featuredImage: null, readMinutes: expected.readMinutes });
    }
  });

  it('documents: active only', async () => {
    const body = await (await s.request('/api/documents')).json();
    expect(body.map((d: { title: string }) => d.title)).toEqual(['Capability']);
  });

  it('public capability document exposes filePath; onboarding is null when none', async () => {
    expect(await (await s.request('/api/documents/public/capability')).json()).toMatchObject({ filePath: '/uploads/cap.pdf' });
    const none = await s.request('/api/documents/public/onboarding');
    expect(none.status).toBe(200);
    expect(await none.json()).toBeNull();
    expect((await s.request('/api/documents/public/brochure')).status).toBe(404);
  });

  it('contact-info/active answers the seeded record, its example e-mail, phone and address not displayed', async () => {
    const body = await (await s.request('/api/contact-info/active')).json();
    expect(body).toMatchObject({
      displayEmail: false,
      displayPhone: false,
      displayAddress: false,
      displayBusinessHours: true,
      isActive: true,
    });
    expect(body).toMatchObject({ email: '', phone: '', address: '' });
    expect(body.businessHours).toContain('\n');
  });
});

describe('[API] bad input and odd requests', () => {
  it('unknown API path → JSON 404, never HTML', async () => {
    const res = await s.request('/api/does-not-exist');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(await res.json()).toEqual({ message: 'Not found' });
  });

  it('wrong method → 4xx JSON', async () => {
    const res = await s.request('/api/insights', { method: 'DELETE' });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(await res.json()).toHaveProperty('message');
  });

  it('[SECURITY] a cross-site state-changing request is refused, naming the address the site expects (SITE_URL)', async () => {
    const res = await s.request('/api/logout', { method: 'POST', headers: { origin: 'https://evil.example' } });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      message:
        "Cross-site request refused: this site's address is http://localhost:4321 (SITE_URL). Open the site at that address, or set SITE_URL to the address in the browser.",
    });
  });

  it('every API response carries security headers', async () => {
    const res = await s.request('/api/services');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('referrer-policy')).toBeTruthy();
  });
});
