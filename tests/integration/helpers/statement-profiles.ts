/**
 * Four businesses as the capability statement meets them: a new install's minimum, a typical
 * small business, one whose names and titles run long, and one with everything filled in and
 * twelve past-performance entries. Each is a content snapshot over `content-with-data`.
 */
import type { PastPerformanceEntry } from '#server/capability/statement-pdf.ts';
import type { SiteContent } from '#server/content/site-content.ts';
import { STARTING_COMPANY } from '#shared/company.ts';
import { at, content as withData } from './content-with-data';

const stamp = { version: 1, createdAt: at('2026-01-01'), updatedAt: at('2026-01-03') };
const card = (n: number, title: string, description: string) => ({
  id: n,
  title,
  description,
  icon: 'shield',
  imageUrl: null,
  imageAlt: null,
  section: 'federal',
  displayOrder: n,
  isActive: true,
  ...stamp,
});
const service = (n: number, title: string, description: string) => ({
  ...withData.services[0]!,
  id: 200 + n,
  title,
  description,
  ...stamp,
});

const contact = {
  id: 1,
  email: 'bids@harbor-federal.com',
  phone: '(703) 555-1234',
  address: '1200 Harbor Way\nSuite 300\nAlexandria, VA 22314',
  businessHours: 'Monday–Friday',
  isActive: true,
  displayEmail: true,
  displayPhone: true,
  displayAddress: true,
  displayBusinessHours: true,
  ...stamp,
};

const entry = (n: number, over: Partial<PastPerformanceEntry> = {}): PastPerformanceEntry & { id: number } => ({
  id: n,
  customer: ['Department of Veterans Affairs', 'U.S. Army Corps of Engineers', 'General Services Administration', 'NASA Goddard'][n % 4]!,
  title: `Rugged laptops and field kits, order ${n}`,
  summary:
    'Delivered 400 rugged laptops with imaging, asset tags and a three-year warranty to twelve field offices on schedule, with weekly status reports to the contracting officer.',
  periodStart: `${2014 + n}-03`,
  periodEnd: n === 12 ? null : `${2015 + n}-02`,
  contractType: 'Firm-fixed-price',
  value: 250_000 + n * 10_000,
  showValue: true,
  naicsCode: '423430',
  isActive: true,
  displayOrder: n,
  ...over,
});

const typicalCompany = {
  ...STARTING_COMPANY,
  legalName: 'Harbor Federal Supply LLC',
  tagline: 'Woman-owned supplier of IT hardware and field equipment to federal agencies',
  description:
    'Harbor Federal Supply sources, configures and delivers IT hardware, rugged field equipment and facility supplies to federal buyers, with vetted manufacturer partners and TAA-compliant sourcing.',
  uei: 'ABCDEFGH1234',
  cageCode: '7X2K9',
  samActive: true,
  samExpiresOn: '2099-05-01',
  certifications: [{ name: 'WOSB', identifier: 'SBA-778', expiresOn: '2099-06-30' }],
  procurementTypes: ['FAR Part 13 simplified acquisitions', 'FAR Part 12 commercial items', 'Government purchase card'],
  naicsCodes: [
    { code: '423430', title: 'Computer and Computer Peripheral Equipment and Software Merchant Wholesalers', partnerSupply: null },
    { code: '541611', title: 'Administrative Management and General Management Consulting Services', partnerSupply: null },
  ],
  pscCodes: ['7030', 'R408'],
  contractVehicles: [{ name: 'GSA MAS', number: '47QSWA24D0001' }],
  complianceStatements: [
    { text: 'TAA compliant sourcing', status: 'yes' as const },
    { text: 'Section 508 conformance reports on request', status: 'on_request' as const },
  ],
  founderName: 'Dana Reyes',
  founderTitle: 'President',
  contactPersonEmail: 'dana@harbor-federal.com',
  contactPersonPhone: '(703) 555-0101',
  updatedAt: at('2026-01-03'),
};

const LONG_NAICS = [
  ['423430', 'Computer and Computer Peripheral Equipment and Software Merchant Wholesalers'],
  ['541611', 'Administrative Management and General Management Consulting Services'],
  ['423610', 'Electrical Apparatus and Equipment, Wiring Supplies, and Related Equipment Merchant Wholesalers'],
  ['423490', 'Other Professional Equipment and Supplies Merchant Wholesalers'],
  ['541614', 'Process, Physical Distribution, and Logistics Consulting Services'],
  ['423840', 'Industrial Supplies Merchant Wholesalers'],
] as const;

export const PROFILES: Record<'minimal' | 'typical' | 'long titles' | 'maximal', Partial<SiteContent>> = {
  minimal: {
    company: { ...STARTING_COMPANY, updatedAt: at('2026-01-03') },
    contactInfo: { ...contact, email: '', phone: '', address: '', displayEmail: false, displayPhone: false, displayAddress: false },
    pastPerformance: [],
    federalFeatures: [],
  } as unknown as Partial<SiteContent>,
  typical: {
    company: typicalCompany,
    contactInfo: contact,
    pastPerformance: [entry(1), entry(2), entry(3)],
    federalFeatures: [card(1, 'Rugged laptops and tablets', 'MIL-STD-810 devices, imaged and asset-tagged before delivery.')],
  } as unknown as Partial<SiteContent>,
  'long titles': {
    company: {
      ...typicalCompany,
      legalName: 'Harbor Federal Supply and Logistics Consulting Group, a Woman-Owned Small Business LLC',
      naicsCodes: LONG_NAICS.map(([code, title]) => ({ code, title, partnerSupply: null })),
      certifications: [
        {
          name: 'Woman-Owned Small Business (WOSB) certification, U.S. Small Business Administration',
          identifier: 'SBA-778-2024',
          expiresOn: '2099-09-30',
        },
        { name: 'ISO 9001:2015 Quality Management System certification', identifier: 'QMS-55120', expiresOn: '2099-01-15' },
      ],
      contractVehicles: [
        { name: 'GSA Multiple Award Schedule, Information Technology Large Category', number: '47QSWA24D0001' },
        { name: 'Department of Veterans Affairs Blanket Purchase Agreement for Field Equipment', number: '36C10X24A0042' },
      ],
    },
    contactInfo: contact,
    pastPerformance: [entry(1), entry(2), entry(3), entry(4)],
    federalFeatures: [
      card(1, 'Rugged laptops, tablets and handhelds for field teams', 'MIL-STD-810 devices, imaged and asset-tagged before delivery.'),
      card(2, 'Network and power equipment for remote stations', 'Switches, UPS units and cabling kits shipped ready to install.'),
    ],
  } as unknown as Partial<SiteContent>,
  maximal: {
    company: {
      ...typicalCompany,
      naicsCodes: LONG_NAICS.map(([code, title]) => ({ code, title, partnerSupply: null })),
      pscCodes: ['7030', '7025', '7035', 'R408', 'R499', '5805'],
      certifications: [
        { name: 'WOSB', identifier: 'SBA-778', expiresOn: '2099-06-30' },
        { name: 'ISO 9001:2015', identifier: 'QMS-55120', expiresOn: '2099-01-15' },
        { name: 'EDWOSB', identifier: 'SBA-779', expiresOn: '2099-06-30' },
      ],
      contractVehicles: [
        { name: 'GSA MAS', number: '47QSWA24D0001' },
        { name: 'VA FSS BPA', number: '36C10X24A0042' },
        { name: 'NASA SEWP V', number: 'NNG15SD00B' },
      ],
      complianceStatements: [
        { text: 'TAA compliant sourcing', status: 'yes' as const },
        { text: 'BAA compliant on request', status: 'yes' as const },
        { text: 'Section 508 conformance reports', status: 'yes' as const },
      ],
    },
    contactInfo: contact,
    pastPerformance: Array.from({ length: 12 }, (_, n) => entry(n + 1)),
    services: Array.from({ length: 6 }, (_, n) =>
      service(n, `Service line ${n + 1}: sourcing and delivery`, 'Quotes in 48 hours, vetted manufacturers, delivery tracked to the dock.'),
    ),
    aboutFeatures: Array.from({ length: 5 }, (_, n) => ({
      ...card(50 + n, `Differentiator ${n + 1}`, 'A woman-owned small business with a record of on-time delivery to federal buyers.'),
      section: 'about',
    })),
    federalFeatures: Array.from({ length: 4 }, (_, n) =>
      card(10 + n, `Product line ${n + 1}`, 'Devices and kits configured for field teams.'),
    ),
  } as unknown as Partial<SiteContent>,
};

/** Every stored fact of the company data and the contact that a profile's statement must print whole. */
export function companyFacts(profile: Partial<SiteContent>): string[] {
  const company = profile.company!;
  const contactInfo = profile.contactInfo;
  return [
    company.legalName,
    company.uei,
    company.cageCode,
    ...company.naicsCodes.map((n) => `${n.code} ${n.title}`),
    ...company.certifications.map((c) => c.name),
    ...company.certifications.map((c) => c.identifier),
    ...company.contractVehicles.map((v) => [v.name, v.number].filter(Boolean).join(' ')),
    ...company.pscCodes,
    ...company.procurementTypes,
    company.founderName,
    company.founderTitle,
    company.contactPersonEmail,
    company.contactPersonPhone,
    ...(contactInfo?.displayAddress ? contactInfo.address.split('\n') : []),
  ].filter((f): f is string => Boolean(f));
}
