/** Every public page of SPEC 2.1 (docs/decisions/000 maps partners, capabilities and federal). */
export const PUBLIC_PAGES = [
  { path: '/', h1: /./ },
  { path: '/about', h1: /./ },
  { path: '/services', h1: /./ },
  { path: '/services/consulting', h1: 'Expert Guidance for Every Stage of Procurement' },
  { path: '/services/federal', h1: 'Federal Procurement Capabilities' },
  { path: '/services/partners', h1: 'Your Strategic Channel Partner for Government Markets' },
  { path: '/capabilities', h1: 'Our Capabilities' },
  { path: '/insights', h1: 'Economics & Procurement Insights' },
  { path: '/contact', h1: 'Contact Us' },
  { path: '/privacy', h1: 'Privacy Policy' },
] as const;

/** Pages that hydrate React islands; every other page ships no framework JavaScript. */
export const ISLAND_PAGES = ['/contact'];

export const NOT_FOUND_PAGES = [
  { path: '/no-such-page', h1: '404 Page Not Found' },
  { path: '/insights/no-such-insight', h1: 'Insight Not Found' },
];

/** Budgets (issue 4): gzip JS on island pages, brotli HTML + CSS of the home page. */
export const ISLAND_JS_BUDGET = 75 * 1024;
export const HOME_BROTLI_BUDGET = 14 * 1024;
