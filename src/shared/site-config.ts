/**
 * Facts about the business that are not editable content: the name, registrations, NAICS codes,
 * marketing figures. UEI and CAGE are placeholders the business replaces with its own.
 */
export const SITE = {
  name: 'Sterling Federal Procurement',
  shortName: 'Sterling Federal',
  tagline:
    'Federal procurement, supplier partnerships and project execution for agencies and trusted manufacturers.',
  description:
    'A small woman-owned business and registered federal supplier offering procurement services, procurement consulting and manufacturer channel partnerships.',
  procurementEmail: 'procurement@example.com',
  /** Placeholder: replace with the business's Unique Entity ID from SAM.gov. */
  uei: 'UEI-PLACEHOLDER',
  /** Placeholder: replace with the business's CAGE code. */
  cage: 'CAGE-PLACEHOLDER',
  setAside: 'WOSB / Small Business',
  naics: [
    { code: '423430', title: 'Computer and Computer Peripheral Equipment and Software Merchant Wholesalers' },
    { code: '443142', title: 'Electronics Stores' },
    { code: '334111', title: 'Electronic Computer Manufacturing' },
    { code: '334310', title: 'Audio and Video Equipment Manufacturing' },
    { code: '333924', title: 'Industrial Truck, Tractor, Trailer, and Stacker Machinery Manufacturing' },
    { code: '333241', title: 'Food Product Machinery Manufacturing' },
  ],
} as const;

export const NAV_LINKS = [
  { href: '/', label: 'Home' },
  { href: '/services', label: 'Services' },
  { href: '/insights', label: 'Insights' },
  { href: '/about', label: 'About' },
  { href: '/contact', label: 'Contact' },
] as const;
