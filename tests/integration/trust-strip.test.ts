/**
 * What a contracting officer checks first, on `/` right under the hero and on /services/federal:
 * set-aside, SAM registration, UEI, CAGE, primary NAICS codes and the capability statement, each
 * only when the owner has set it (never a placeholder), and the same facts in the Organization
 * JSON-LD.
 */
import { describe, expect, it } from 'vitest';
import type { SiteContent } from '#server/content/site-content.ts';
import { STARTING_COMPANY } from '#shared/company.ts';
import { content as withData } from './helpers/content-with-data';
import { renderPage } from '../helpers/bundle';

const SITE = 'https://www.example.gov';
const filled = {
  ...STARTING_COMPANY,
  uei: 'ABCDEF123456',
  cageCode: '1A2B3',
  samActive: true,
  samExpiresOn: '2099-05-01',
  figuresConfirmed: true,
};

async function page(
  path: string,
  content: { company?: object; documents?: SiteContent['documents']; federalFeatures?: unknown[] },
): Promise<string> {
  const res = await renderPage(path, SITE, { ...withData, ...content } as unknown as SiteContent);
  expect(res.status).toBe(200);
  return res.text();
}

/** The registrations strip's facts as term → value, or null when there is no strip. */
function strip(html: string): { facts: Record<string, string>; download: string | null } | null {
  const section = html.match(/<section aria-label="Registrations"[\s\S]*?<\/section>/)?.[0];
  if (!section) return null;
  const facts = Object.fromEntries(
    [...section.matchAll(/<dt[^>]*>([^<]*)<\/dt>\s*<dd[^>]*>([^<]*)<\/dd>/g)].map((m) => [m[1]!.trim(), m[2]!.trim()]),
  );
  return { facts, download: section.match(/<a href="([^"]+)"[^>]*data-document="capability"/)?.[1] ?? null };
}

function organization(html: string): Record<string, unknown> {
  for (const m of html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)) {
    const data = JSON.parse(m[1]!) as Record<string, unknown>;
    if (data['@type'] === 'Organization') return data;
  }
  throw new Error('no Organization JSON-LD');
}

describe('[SITE][TRUST] the registrations strip under the home page hero', () => {
  it('a new install shows only what is true already: the set-aside and the primary NAICS codes; no statement to download', async () => {
    const html = await page('/', { company: STARTING_COMPANY, documents: [] });
    expect(strip(html)).toEqual({
      facts: { 'Set-aside': 'WOSB / Small Business', 'Primary NAICS': '423430 · 443142 · 334111' },
      download: null,
    });
    expect(html).not.toMatch(/PLACEHOLDER|TBD|XXXX/);
    const org = organization(html);
    expect(org.identifier).toBeUndefined();
    expect(org.subjectOf).toBeUndefined();
    expect(org.hasCredential).toEqual([
      { '@type': 'EducationalOccupationalCredential', credentialCategory: 'Set-aside eligibility', name: 'WOSB / Small Business' },
    ]);
  });

  it('with the profile filled and a capability statement: every fact, the download, and the same facts in the JSON-LD', async () => {
    const html = await page('/', { company: filled });
    expect(strip(html)).toEqual({
      facts: {
        'Set-aside': 'WOSB / Small Business',
        'SAM.gov': 'Active through May 1, 2099',
        UEI: 'ABCDEF123456',
        CAGE: '1A2B3',
        'Primary NAICS': '423430 · 443142 · 334111',
      },
      // The active capability document, not the inactive one listed before it.
      download: '/uploads/cap.pdf',
    });
    // Right under the hero, before the figures.
    expect(html.indexOf('aria-label="Registrations"')).toBeLessThan(html.indexOf('aria-label="Results"'));
    const org = organization(html);
    expect(org.identifier).toEqual([
      { '@type': 'PropertyValue', propertyID: 'UEI', value: 'ABCDEF123456' },
      { '@type': 'PropertyValue', propertyID: 'CAGE', value: '1A2B3' },
    ]);
    expect(org.naics).toBe('423430, 443142, 334111, 334310, 333924, 333241');
    expect(org.hasCredential).toContainEqual(expect.objectContaining({ name: 'Active SAM registration', expires: '2099-05-01' }));
    expect(org.subjectOf).toEqual({
      '@type': 'DigitalDocument',
      name: 'Capability Statement',
      encodingFormat: 'application/pdf',
      url: `${SITE}/uploads/cap.pdf`,
    });
  });

  it('a SAM registration without a renewal date, one NAICS code; nothing set at all: no strip', async () => {
    const one = await page('/', { company: { ...filled, samExpiresOn: null, naicsCodes: [filled.naicsCodes[0]!] }, documents: [] });
    expect(strip(one)!.facts).toMatchObject({ 'SAM.gov': 'Registration active', NAICS: '423430' });
    const none = await page('/', {
      company: { ...STARTING_COMPANY, setAside: null, naicsCodes: [] },
      documents: [],
    });
    expect(strip(none)).toBeNull();
  });
});

describe('[SITE][TRUST] /services/federal in the specification’s words', () => {
  const profile = (html: string) =>
    Object.fromEntries(
      [...html.matchAll(/<dt class="font-semibold text-ink">([^<]*)<\/dt>\s*<dd[^>]*>([\s\S]*?)<\/dd>/g)].map((m) => [
        m[1]!.trim(),
        m[2]!.replace(/<[^>]+>/g, '').trim(),
      ]),
    );

  it('a new install: WOSB / Small Business, no SAM claim, and UEI and CAGE offered on request through the contact form', async () => {
    const html = await page('/services/federal', { company: STARTING_COMPANY });
    const facts = profile(html);
    expect(facts['Set-aside eligibility']).toBe('WOSB / Small Business');
    expect(facts['SAM registration']).toBeUndefined();
    expect(facts['UEI and CAGE']).toBe('UEI and CAGE on request');
    expect(html).toMatch(/<a href="\/contact" class="link">\s*UEI and CAGE on request\s*<\/a>/);
  });

  it('filled: Active SAM registration with its renewal date, the UEI and CAGE values, nothing on request; one missing is offered alone', async () => {
    const facts = profile(await page('/services/federal', { company: filled }));
    expect(facts).toMatchObject({
      'SAM registration': 'Active SAM registration (renews by May 1, 2099)',
      UEI: 'ABCDEF123456',
      'CAGE code': '1A2B3',
    });
    expect(Object.keys(facts).some((k) => k.endsWith('on request') || /and CAGE|^CAGE$/.test(k))).toBe(false);
    const noCage = profile(await page('/services/federal', { company: { ...filled, cageCode: null } }));
    expect(noCage.CAGE).toBe('CAGE on request');
    expect(noCage.UEI).toBe('ABCDEF123456');
  });

  it('compliance rows: only Yes has a check mark; Pending and On request say so; No is not shown; a bare statement of an older snapshot reads by its words', async () => {
    const rows = (html: string) =>
      [...html.matchAll(/<tr>\s*<th scope="row"[^>]*>([\s\S]*?)<\/th>\s*<td[^>]*>([\s\S]*?)<\/td>\s*<\/tr>/g)].map((m) => ({
        text: m[1]!.trim(),
        status: m[2]!.replace(/<[^>]+>/g, '').trim(),
        check: m[2]!.includes('<svg'),
      }));
    const html = await page('/services/federal', {
      company: {
        ...filled,
        complianceStatements: [
          { text: 'TAA / BAA Compliant', status: 'yes' },
          { text: 'GSA MAS schedule', status: 'pending' },
          { text: 'Country of origin certificates', status: 'on-request' },
          { text: 'ITAR registration', status: 'no' },
        ],
      },
    });
    expect(rows(html)).toEqual([
      { text: 'TAA / BAA Compliant', status: 'Yes', check: true },
      { text: 'GSA MAS schedule', status: 'Pending', check: false },
      { text: 'Country of origin certificates', status: 'On request', check: false },
    ]);
    expect(html).not.toContain('ITAR registration');
    const older = await page('/services/federal', {
      company: { ...filled, complianceStatements: ['FAR Part 12/13', 'GSA MAS schedule pending'] },
    });
    expect(rows(older)).toEqual([
      { text: 'FAR Part 12/13', status: 'Yes', check: true },
      { text: 'GSA MAS schedule pending', status: 'Pending', check: false },
    ]);
  });

  it('a certification or SAM registration past its date is not shown as current (on the page, nor in the JSON-LD)', async () => {
    const html = await page('/services/federal', {
      company: {
        ...filled,
        samExpiresOn: '2020-01-31',
        certifications: [
          { name: 'WOSB certification', identifier: 'SBA-1', expiresOn: '2020-06-30' },
          { name: 'ISO 9001', identifier: null, expiresOn: '2099-01-01' },
          { name: 'HUBZone', identifier: null, expiresOn: null },
        ],
      },
    });
    const facts = profile(html);
    expect(facts['SAM registration']).toBeUndefined();
    expect(facts['WOSB certification']).toBeUndefined();
    expect(facts).toMatchObject({ 'ISO 9001': 'Certified', HUBZone: 'Certified' });
    expect(html).not.toContain('SBA-1');
    expect(JSON.stringify(organization(html))).not.toContain('Active SAM registration');
  });

  it("the product capability cards are the owner's list (Services tab); with none, no empty list", async () => {
    const products = (html: string) =>
      html
        .match(/<h2 id="products"[\s\S]*?<\/ul>/)?.[0]
        .match(/<h3[^>]*>([^<]*)<\/h3>/g)
        ?.map((h) => h.replace(/<[^>]+>/g, '')) ?? [];
    const html = await page('/services/federal', {});
    expect(products(html)).toEqual(['Material Handling']);
    expect(html).toContain('Pallet stackers and lifts.');
    const none = await page('/services/federal', { federalFeatures: [] } as object);
    expect(none).toContain('Product Capabilities');
    expect(none).not.toContain('Material Handling');
    expect(none).not.toMatch(/<h2 id="products"[^>]*>[^<]*<\/h2>\s*<ul/);
  });
});
