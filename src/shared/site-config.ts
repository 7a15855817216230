/**
 * The business as first described: the starting values of the company profile
 * (src/shared/company.ts), which the owner then edits in the back office's Company tab.
 */
export const SITE = {
  name: 'Sterling Federal Procurement',
  shortName: 'Sterling Federal',
  tagline: 'Federal procurement, supplier partnerships and project execution for agencies and trusted manufacturers.',
  description:
    'A small woman-owned business and registered federal supplier offering procurement services, procurement consulting and manufacturer channel partnerships.',
  /** Types of procurement the business takes (SPEC 2.7). */
  procurementTypes: ['FAR Part 12 (Commercial Items)', 'FAR Part 13 (Simplified Acquisition)'],
  /** The six supported NAICS codes (SPEC 2.7, 2.8, 9): official title and what partners supply. */
  naics: [
    {
      code: '423430',
      title: 'Computer and Computer Peripheral Equipment and Software Merchant Wholesalers',
      partnerText: 'Computers, peripherals and software',
    },
    { code: '443142', title: 'Electronics Stores', partnerText: 'Electronics, through retail-distribution partnerships' },
    { code: '334111', title: 'Electronic Computer Manufacturing', partnerText: 'Laptops, desktops and servers' },
    { code: '334310', title: 'Audio and Video Equipment Manufacturing', partnerText: 'Audio and video equipment' },
    {
      code: '333924',
      title: 'Industrial Truck, Tractor, Trailer, and Stacker Machinery Manufacturing',
      partnerText: 'Industrial trucks, pallet stackers and material handling',
    },
    {
      code: '333241',
      title: 'Food Product Machinery Manufacturing',
      partnerText: 'Food processing and commercial kitchen machinery',
    },
  ],
  /** Compliance table of the federal capabilities page (SPEC 2.7). */
  compliance: [
    'FAR Part 12/13 Compliant',
    'TAA / BAA Compliant',
    'ITAR-Free Equipment Available',
    'VA & DLA Requirements Met',
    'Country of Origin Certification Available Upon Request',
  ],
} as const;

export const NAV_LINKS = [
  { href: '/', label: 'Home' },
  { href: '/services', label: 'Services' },
  { href: '/insights', label: 'Insights' },
  { href: '/about', label: 'About' },
  { href: '/contact', label: 'Contact' },
] as const;

/**
 * The insights page's four fixed link cards (SPEC 2.11): three insight slugs and the services
 * page. While an insight with that slug is not published, its card points at `fallback`
 * instead, so the page never links to a missing article.
 */
export const FEATURED_INSIGHT_LINKS = [
  {
    slug: 'reducing-procurement-costs',
    title: 'Reducing Procurement Costs',
    text: 'Practical ways agencies cut acquisition costs without cutting corners.',
    fallback: '/services/consulting',
  },
  {
    slug: 'supplier-vetting-best-practices',
    title: 'Supplier Vetting Best Practices',
    text: 'How we verify TAA/BAA compliance, country of origin and supplier reliability.',
    fallback: '/services/partners',
  },
  {
    slug: 'contract-management-essentials',
    title: 'Contract Management Essentials',
    text: 'Keeping deliverables, documentation and FAR requirements on track.',
    fallback: '/services/federal',
  },
] as const;
