import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { companyOf, currentCertifications, formatDay, samStatus, shownCompliance } from '#shared/company.ts';
import { DEFAULT_LOGO } from '#shared/fallbacks.ts';
import type { SiteContent } from '../content/site-content';
import { isKey } from '../storage/file-storage';
import { uploadsDir } from '../storage/local-disk';
import { log } from '../log';
import type { PastPerformanceEntry, StatementInput } from './statement-pdf';

/*
 * What the capability statement shows, taken from a content snapshot: the company profile, the
 * services and federal product cards, the why-choose-us cards (else the home feature cards), the active contact record and
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

/** A card or service as the statement lists it. */
const item = (s: { title: string; description: string }) => ({ title: s.title, description: s.description });

/** `a[0], b[0], a[1], b[1], …`, then what is left of the longer. */
function alternate<T>(a: readonly T[], b: readonly T[]): T[] {
  const out: T[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) out.push(...(i < a.length ? [a[i]!] : []), ...(i < b.length ? [b[i]!] : []));
  return out;
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
    { term: company.pscCodes.length > 1 ? 'PSC codes' : 'PSC', values: [company.pscCodes.join(', ')] },
    {
      term: 'Certifications',
      values: currentCertifications(company).map((c) =>
        [c.name, c.identifier, c.expiresOn ? `expires ${formatDay(c.expiresOn)}` : null].filter(Boolean).join(' · '),
      ),
    },
    { term: 'Contract vehicles', values: company.contractVehicles.map((v) => [v.name, v.number].filter(Boolean).join(' ')) },
    // How to buy and what is certain: the ways to buy, then the compliance the business states as Yes.
    { term: 'Buying methods', values: [company.procurementTypes.join('; ')] },
    {
      term: 'Compliance',
      values: [
        shownCompliance(company)
          .filter((c) => c.status === 'yes')
          .map((c) => c.text)
          .join('; '),
      ],
    },
  ];
  // The person to call: the founder (About tab), with a direct line, else the business's.
  const shownEmail = contact?.displayEmail ? contact.email : null;
  const shownPhone = contact?.displayPhone ? contact.phone : null;
  const person = company.founderName?.trim() ? [company.founderName, company.founderTitle].filter(Boolean).join(', ') : null;
  const personEmail = person ? (company.contactPersonEmail ?? company.procurementEmail ?? shownEmail) : null;
  const personPhone = person ? (company.contactPersonPhone ?? shownPhone) : null;
  const contactFacts = [
    { term: 'Point of contact', values: [person, personEmail, personPhone] },
    { term: 'Phone', values: [shownPhone !== personPhone ? shownPhone : null] },
    { term: 'E-mail', values: [shownEmail !== personEmail ? shownEmail : null] },
    {
      term: 'Procurement',
      values: [company.procurementEmail !== shownEmail && company.procurementEmail !== personEmail ? company.procurementEmail : null],
    },
    // As entered, a line each.
    { term: 'Address', values: contact?.displayAddress ? contact.address.split(/\r?\n/) : [] },
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
      // What a buyer buys: the services and the federal product capabilities, taken in turn, so that
      // both keep places when the page is full (the statement leaves out competencies from the end).
      competencies: alternate(content.services.map(item), content.federalFeatures.map(item)),
      differentiators: cards.map(item),
      pastPerformance: [...pastPerformance],
      facts: present(facts),
      contact: present(contactFacts),
    },
    createdAt: lastChange([
      content.company,
      content.contactInfo,
      content.header,
      ...content.services,
      ...content.federalFeatures,
      ...cards,
    ]),
    website,
  };
}
