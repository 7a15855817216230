import { samStatus, type Company } from './company';
import { offeredDocument, type DocumentChoice } from './documents';
import { isPlaceholderEmail, isPlaceholderPhone } from './placeholders';

const DEFAULT_SITE = 'http://localhost:4321';

/** An absolute URL on the public site (SITE_URL = Astro.site). */
export function absoluteUrl(path: string, site: URL | string | undefined = DEFAULT_SITE): string {
  return new URL(path, site ?? DEFAULT_SITE).toString();
}

/** What the active contact record lets the public see: its e-mail and phone, when displayed. */
export interface PublicContact {
  email: string;
  telephone?: string;
}

/**
 * The public contact details from the active contact record (display flags respected); the
 * procurement desk's address when the record is absent or hides its e-mail (none when neither is set).
 */
export function publicContact(
  info: { email: string; phone: string; displayEmail: boolean; displayPhone: boolean } | null | undefined,
  company: Pick<Company, 'procurementEmail'>,
): Partial<PublicContact> {
  const shown = info?.displayEmail && info.email ? info.email : company.procurementEmail;
  // A placeholder (info@example.com) is never offered as a way to reach the business.
  const email = isPlaceholderEmail(shown) ? null : shown;
  return {
    ...(email ? { email } : {}),
    ...(info?.displayPhone && info.phone && !isPlaceholderPhone(info.phone) ? { telephone: info.phone } : {}),
  };
}

/**
 * Organization JSON-LD with what buyers check (NAICS, UEI, CAGE, set-aside, SAM registration, the
 * capability statement), only those set: the same facts the home page's registrations strip shows.
 */
export function organizationJsonLd(
  company: Company,
  site: URL | string | undefined = DEFAULT_SITE,
  contact: Partial<PublicContact> = {},
  choice: DocumentChoice = { documents: [], useGenerated: false },
) {
  const identifiers = [
    ...(company.uei ? [{ '@type': 'PropertyValue', propertyID: 'UEI', value: company.uei }] : []),
    ...(company.cageCode ? [{ '@type': 'PropertyValue', propertyID: 'CAGE', value: company.cageCode }] : []),
  ];
  const sam = samStatus(company);
  const credentials = [
    ...(company.setAside
      ? [{ '@type': 'EducationalOccupationalCredential', credentialCategory: 'Set-aside eligibility', name: company.setAside }]
      : []),
    ...(sam
      ? [
          {
            '@type': 'EducationalOccupationalCredential',
            credentialCategory: 'Registration',
            name: 'Active SAM registration',
            recognizedBy: { '@type': 'Organization', name: 'System for Award Management (SAM.gov)' },
            ...(company.samExpiresOn ? { expires: company.samExpiresOn } : {}),
          },
        ]
      : []),
  ];
  const capability = offeredDocument(choice, 'capability');
  return {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    '@id': absoluteUrl('/#organization', site),
    name: company.legalName,
    alternateName: company.shortName,
    ...(company.description ? { description: company.description } : {}),
    url: absoluteUrl('/', site),
    logo: absoluteUrl('/images/logo.svg', site),
    ...(contact.email ? { email: contact.email } : {}),
    ...(contact.telephone ? { telephone: contact.telephone } : {}),
    ...(company.naicsCodes.length ? { naics: company.naicsCodes.map((n) => n.code).join(', ') } : {}),
    ...(identifiers.length ? { identifier: identifiers } : {}),
    ...(credentials.length ? { hasCredential: credentials } : {}),
    ...(capability
      ? {
          subjectOf: {
            '@type': 'DigitalDocument',
            name: 'Capability Statement',
            encodingFormat: 'application/pdf',
            url: absoluteUrl(capability.filePath, site),
          },
        }
      : {}),
  };
}

export interface Crumb {
  name: string;
  path: string;
}

/** BreadcrumbList JSON-LD; Home is always the first item. */
export function breadcrumbJsonLd(crumbs: Crumb[], site: URL | string | undefined = DEFAULT_SITE) {
  const all = [{ name: 'Home', path: '/' }, ...crumbs];
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: all.map((c, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: c.name,
      item: absoluteUrl(c.path, site),
    })),
  };
}

export interface ArticleInput {
  title: string;
  description: string;
  path: string;
  authorName?: string | null;
  authorTitle?: string | null;
  datePublished?: string | null;
  dateModified?: string | null;
  image?: string | null;
  section?: string;
  keywords?: string[];
}

/** Article JSON-LD for an insight page. */
export function articleJsonLd(a: ArticleInput, publisherName: string, site: URL | string | undefined = DEFAULT_SITE) {
  return {
    '@context': 'https://schema.org',
    '@type': 'Article',
    headline: a.title.slice(0, 110),
    description: a.description,
    mainEntityOfPage: absoluteUrl(a.path, site),
    url: absoluteUrl(a.path, site),
    ...(a.datePublished ? { datePublished: a.datePublished } : {}),
    ...(a.dateModified ? { dateModified: a.dateModified } : {}),
    ...(a.image ? { image: absoluteUrl(a.image, site) } : {}),
    ...(a.section ? { articleSection: a.section } : {}),
    ...(a.keywords?.length ? { keywords: a.keywords.join(', ') } : {}),
    author: a.authorName
      ? { '@type': 'Person', name: a.authorName, ...(a.authorTitle ? { jobTitle: a.authorTitle } : {}) }
      : { '@type': 'Organization', name: publisherName },
    publisher: {
      '@type': 'Organization',
      name: publisherName,
      logo: { '@type': 'ImageObject', url: absoluteUrl('/images/logo.svg', site) },
    },
  };
}

/** Escapes text for XML (sitemap, RSS). */
export function xmlEscape(s: string): string {
  return s.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);
}
