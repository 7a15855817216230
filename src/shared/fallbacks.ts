/**
 * The spec's hard-coded fallback copy (SPEC 1: "every such block has fallback text shown when the
 * server returns nothing"). The seed stores the same copy as real content on first start.
 */

export const DEFAULT_LOGO = '/images/logo.svg';
export const DEFAULT_SERVICE_IMAGE = '/images/service-default.svg';

export const FALLBACK_HEADER = {
  title: 'Procurement Solutions for Federal Agencies and Trusted Manufacturers',
  subtitle:
    'A small woman-owned business and registered federal supplier: we source, consult and broker so agencies buy with confidence and manufacturers reach government markets.',
  backgroundImage: '/images/hero-background.svg',
  logoLight: DEFAULT_LOGO,
  logoDark: DEFAULT_LOGO,
  boxHeading: null as string | null,
  boxContent: null as string | null,
};

export const FALLBACK_HEADER_CTA = {
  buttonText: 'Request Quick Quote',
  buttonLink: '/contact',
  buttonStyle: 'primary' as const,
  isVisible: true,
};

export const FALLBACK_INTRO = {
  title: 'Your Partner in Federal Procurement',
  content:
    'We help government buyers find compliant products quickly, guide organisations through the procurement process, and connect commercial manufacturers with federal demand. Every engagement is built on compliance, transparency and on-time delivery.',
};

export const FALLBACK_HOME_CTA = {
  title: 'Ready to Simplify Your Procurement?',
  content: 'Tell us what you need to buy, source or sell. Our team responds within 24 hours on business days with a clear next step.',
};

export const FALLBACK_HOME_SERVICES = {
  title: 'Our Services',
  content: 'Federal supply, procurement consulting and manufacturer channel partnerships.',
};

export const FALLBACK_FEATURES = [
  {
    title: 'Expert Leadership',
    description: 'Led by procurement professionals who know FAR Part 12 and 13 acquisitions, set-aside programs and agency buying cycles.',
    icon: 'award',
  },
  {
    title: 'Tailored Solutions',
    description: 'Sourcing, consulting and channel strategies shaped around each agency requirement and each manufacturer catalog.',
    icon: 'puzzle',
  },
  {
    title: 'Measurable Results',
    description: 'On-time delivery, documented compliance and cost savings that show up in every contract we complete.',
    icon: 'chart',
  },
] as const;

export const FALLBACK_ABOUT = {
  title: 'About Us',
  subtitle: 'A small woman-owned business connecting federal buyers with trusted suppliers.',
  body: 'We are a registered federal supplier offering procurement services, procurement consulting and channel partnership for commercial manufacturers. Our team combines hands-on acquisition experience with careful compliance work, so agencies receive the right products on schedule and manufacturers enter government markets with confidence.',
};

export const FALLBACK_MISSION = {
  title: 'Our Mission',
  content:
    'To make federal procurement simple, compliant and dependable: for the agencies who buy, for the manufacturers who supply, and for the taxpayers who expect value.',
};

/** The federal page's Product Capabilities cards, until the owner edits them (Services tab). */
export const FALLBACK_FEDERAL_PRODUCTS = [
  {
    icon: 'code',
    title: 'IT Hardware & Peripherals',
    description: 'Monitors, docking stations, keyboards, printers, networking and storage.',
  },
  { icon: 'database', title: 'Computers & Servers', description: 'Laptops, desktops, workstations and rack servers from leading OEMs.' },
  { icon: 'layers', title: 'Software & Licensing', description: 'Commercial software, subscriptions and license renewals.' },
  {
    icon: 'presentation-chart',
    title: 'Audio & Video Equipment',
    description: 'Conference-room displays, projectors, cameras and sound systems.',
  },
  { icon: 'truck', title: 'Material Handling', description: 'Industrial trucks, pallet stackers, lifts and warehouse equipment.' },
  {
    icon: 'package',
    title: 'Commercial Kitchen & Food Processing',
    description: 'Food processing machinery and commercial kitchen equipment.',
  },
];

export const FALLBACK_ABOUT_FEATURES = [
  {
    title: 'Certified Experts',
    description: 'A certified woman-owned small business with active SAM registration and procurement expertise.',
    icon: 'fas fa-certificate',
  },
  {
    title: 'Industry Expertise',
    description: 'Years of experience across IT, electronics, material handling and commercial kitchen equipment.',
    icon: 'fas fa-industry',
  },
  {
    title: 'Results-Driven',
    description: 'We measure success by on-time delivery, compliance and the savings our clients see.',
    icon: 'fas fa-chart-line',
  },
] as const;

export const FALLBACK_SERVICES_HERO = {
  title: 'Procurement Services Built for Government Buyers',
  content:
    'From sourcing compliant products to guiding your acquisition strategy, we deliver procurement support that keeps missions moving.',
};

export const FALLBACK_SERVICES_OVERVIEW = {
  title: 'Let’s Discuss Your Procurement Needs',
  content:
    'Whether you are an agency buyer, a contracting officer or a manufacturer, we will find the right path to a compliant, on-time result.',
  buttonText: 'Contact Our Team',
};

export const FALLBACK_SERVICES = [
  {
    title: 'Procurement Strategy Development',
    description:
      'We assess your requirements, market and timeline, then build an acquisition strategy that balances cost, compliance and speed.',
    icon: 'chart-bar',
  },
  {
    title: 'Supplier Management & Sourcing',
    description:
      'We identify, vet and manage qualified suppliers, verifying TAA/BAA compliance and country of origin before anything ships.',
    icon: 'users',
  },
  {
    title: 'Contract Management & Compliance',
    description: 'We track deliverables, documentation and FAR requirements from award to closeout so nothing slips.',
    icon: 'clipboard-list',
  },
] as const;

export const FALLBACK_CONTACT_INFO = {
  email: 'info@example.com',
  phone: '(555) 010-0100',
  address: 'Suite 100\nWashington, DC 20001',
  businessHours: 'Monday – Friday: 9:00 AM – 5:00 PM ET\nSaturday – Sunday: Closed',
};

export const DEFAULT_TEMPLATE = {
  headerBgColor: '#1e293b',
  headerTextColor: '#ffffff',
  contentBgColor: '#ffffff',
  contentTextColor: '#4b5563',
  accentColor: '#0d9488',
  fontFamily: "'Segoe UI', Tahoma, Geneva, Verdana, sans-serif",
  companyLogo: null as string | null,
  footerText: 'Thank you for contacting us. We appreciate your interest and will be in touch soon.',
  signatureName: 'The Procurement Services Team',
  signatureEmail: 'info@example.com',
  signatureWebsite: 'http://localhost:4321',
};
