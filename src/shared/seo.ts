import { SITE } from './site-config';

/** Organization JSON-LD with the registrations buyers search for (NAICS, UEI, CAGE). */
export function organizationJsonLd(siteUrl = 'http://localhost:4321') {
  return {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    name: SITE.name,
    description: SITE.description,
    url: siteUrl,
    logo: `${siteUrl.replace(/\/$/, '')}/images/logo.svg`,
    email: SITE.procurementEmail,
    naics: SITE.naics.map((n) => n.code).join(', '),
    identifier: [
      { '@type': 'PropertyValue', propertyID: 'UEI', value: SITE.uei },
      { '@type': 'PropertyValue', propertyID: 'CAGE', value: SITE.cage },
    ],
  };
}
