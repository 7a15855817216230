import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { companyOf, currentCertifications, formatDay, samStatus } from '#shared/company.ts';
import { DEFAULT_LOGO } from '#shared/fallbacks.ts';
import type { SiteContent } from '../content/site-content';
import { isKey } from '../storage/file-storage';
import { uploadsDir } from '../storage/local-disk';
import { log } from '../log';
import type { PastPerformanceEntry, StatementInput } from './statement-pdf';

/*
 * What the capability statement shows, taken from a content snapshot: the company profile, the
 * services, the why-choose-us cards (else the home feature cards), the active contact record and
 * the uploaded logo. Nothing that is not set is handed on: the PDF prints what it is given.
 */

/** The uploaded header logo as PNG bytes, when it is a file of this server's uploads; else null (the site's mark). */
async function uploadedLogo(url: string | null | undefined): Promise<Buffer | null> {
  if (!url || url === DEFAULT_LOGO || !url.startsWith('/uploads/')) return null;
  const key = decodeURIComponent(url.slice('/uploads/'.length));
  if (!isKey(key)) return null;
  try {
    const bytes = await fs.readFile(path.join(uploadsDir(), key));
    // PDF takes PNG and JPEG: any upload (SVG, WebP, GIF too) becomes a PNG of print size.
    return await sharp(bytes).resize({ height: 240, width: 480, fit: 'inside', withoutEnlargement: true }).png().toBuffer();
  } catch (err) {
    log.warn('capability statement: the logo could not be read, the site mark is used', { url, error: String(err) });
    return null;
  }
}

/** The newest change among the rows the statement shows: its creation date, so the same content gives the same bytes. */
function lastChange(rows: ({ updatedAt?: string | null } | null | undefined)[]): Date {
  const times = rows.map((r) => (r?.updatedAt ? Date.parse(r.updatedAt) : NaN)).filter(Number.isFinite);
  return new Date(times.length ? Math.max(...times) : 0);
}

/** The statement's input from `content` (its past performance unless `pastPerformance` is given). */
export async function statementInput(
  content: SiteContent,
  site: string,
  pastPerformance: readonly PastPerformanceEntry[] = content.pastPerformance,
): Promise<{ input: StatementInput; createdAt: Date; website: string }> {
  const company = companyOf(content);
  const contact = content.contactInfo;
  const cards = content.aboutFeatures.length ? content.aboutFeatures : content.homeFeatures;
  const sam = samStatus(company);
  const website = new URL(site).host;
  const facts = [
    { term: 'UEI', values: [company.uei] },
    { term: 'CAGE', values: [company.cageCode] },
    { term: 'Set-aside', values: [company.setAside] },
    { term: 'SAM.gov', values: [sam && (sam.through ? `Active through ${sam.through}` : 'Registration active')] },
    { term: company.naicsCodes.length > 1 ? 'NAICS codes' : 'NAICS', values: company.naicsCodes.map((n) => `${n.code} ${n.title}`) },
    {
      term: 'Certifications',
      values: currentCertifications(company).map((c) =>
        [c.name, c.identifier, c.expiresOn ? `expires ${formatDay(c.expiresOn)}` : null].filter(Boolean).join(' · '),
      ),
    },
  ];
  const contactFacts = [
    { term: 'Phone', values: [contact?.displayPhone ? contact.phone : null] },
    { term: 'E-mail', values: [contact?.displayEmail ? contact.email : null] },
    { term: 'Procurement', values: [company.procurementEmail !== contact?.email ? company.procurementEmail : null] },
    { term: 'Address', values: [contact?.displayAddress ? contact.address : null] },
    { term: 'Website', values: [website] },
  ];
  const present = (list: { term: string; values: (string | null | undefined)[] }[]) =>
    list.map((f) => ({ term: f.term, values: f.values.filter((v): v is string => Boolean(v?.trim())) })).filter((f) => f.values.length > 0);
  const logo = await uploadedLogo(content.header?.logoLight);
  return {
    input: {
      legalName: company.legalName,
      tagline: company.tagline,
      overview: company.description,
      logo: logo ? { data: logo, alt: `${company.legalName} logo` } : null,
      competencies: content.services.map((s) => ({ title: s.title, description: s.description })),
      differentiators: cards.map((c) => ({ title: c.title, description: c.description })),
      pastPerformance: [...pastPerformance],
      facts: present(facts),
      contact: present(contactFacts),
    },
    createdAt: lastChange([content.company, content.contactInfo, content.header, ...content.services, ...cards]),
    website,
  };
}
