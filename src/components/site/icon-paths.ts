/** SVG path data of the site's icons (24×24, stroked), shared by Icon.astro and the islands. */
const award = 'M12 15a6 6 0 1 0 0-12 6 6 0 0 0 0 12zm-3.5-1.2L7 22l5-3 5 3-1.5-8.2';
const puzzle = 'M4 7h4a2 2 0 1 1 4 0h4v4a2 2 0 1 1 0 4v4h-4a2 2 0 1 0-4 0H4v-4a2 2 0 1 0 0-4z';
const chart = 'M4 20V10m6 10V4m6 16v-7m4 7H2';
const shield = 'M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6z';
const truck = 'M3 6h11v10H3zm11 4h4l3 3v3h-7zM7 19a2 2 0 1 0 0-4 2 2 0 0 0 0 4zm10 0a2 2 0 1 0 0-4 2 2 0 0 0 0 4z';
const check = 'M20 6L9 17l-5-5';
const users = 'M17 21v-2a4 4 0 0 0-4-4H5a4 4 0 0 0-4 4v2M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8zm14 10v-2a4 4 0 0 0-3-3.9M16 3.1a4 4 0 0 1 0 7.8';
const star = 'M12 3l2.8 5.7 6.2.9-4.5 4.4 1 6.2L12 17.3 6.5 20.2l1-6.2L3 9.6l6.2-.9z';
const doc = 'M14 3H6a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V9zm0 0v6h6M8 13h8M8 17h5';
const arrow = 'M5 12h14m-6-6l6 6-6 6';
export const mail = 'M4 6h16v12H4zm0 0l8 7 8-7';
export const phone = 'M5 4h4l2 5-2.5 1.5a11 11 0 0 0 5 5L15 13l5 2v4a2 2 0 0 1-2 2A16 16 0 0 1 3 6a2 2 0 0 1 2-2';
export const clock = 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zm0-14v5l3 3';
export const pin = 'M12 21s-7-6.2-7-11a7 7 0 0 1 14 0c0 4.8-7 11-7 11zm0-8.5a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5z';
const checkCircle = 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zm-4-9l3 3 5-6';
const lightbulb = 'M9 18h6m-5 3h4M12 3a6 6 0 0 0-3.5 10.9c.6.5 1 1.2 1 2.1h5c0-.9.4-1.6 1-2.1A6 6 0 0 0 12 3z';
const code = 'M8 8l-5 4 5 4m8-8l5 4-5 4M14 4l-4 16';
const cog =
  'M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6zm7.4-3a7.4 7.4 0 0 0-.1-1.2l2-1.6-2-3.4-2.4 1a7.5 7.5 0 0 0-2-1.2L14.5 3h-5l-.4 2.6a7.5 7.5 0 0 0-2 1.2l-2.4-1-2 3.4 2 1.6a7.4 7.4 0 0 0 0 2.4l-2 1.6 2 3.4 2.4-1a7.5 7.5 0 0 0 2 1.2l.4 2.6h5l.4-2.6a7.5 7.5 0 0 0 2-1.2l2.4 1 2-3.4-2-1.6c.1-.4.1-.8.1-1.2z';
const database = 'M12 8c4.4 0 8-1.3 8-3s-3.6-3-8-3-8 1.3-8 3 3.6 3 8 3zM4 5v14c0 1.7 3.6 3 8 3s8-1.3 8-3V5M4 12c0 1.7 3.6 3 8 3s8-1.3 8-3';
const wrench = 'M14.7 6.3a4 4 0 0 0 5 5L21 13l-8 8-3-3 8-8-1.3-1.3a4 4 0 0 1-5-5L8 7 3 12l3 3';
const presentationChart = 'M3 4h18M4 4v11h16V4M12 15v4m-4 2l4-2 4 2M8 11l3-3 2 2 3-3';
const clipboardList = 'M9 4h6v3H9zM7 5H5v16h14V5h-2M9 11h6m-6 4h6';
const search = 'M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14zm10 3l-5-5';
const calendar = 'M4 6h16v15H4zm0 4h16M8 3v4m8-4v4';
const download = 'M12 3v12m-5-5l5 5 5-5M4 21h16';
const external = 'M14 4h6v6m0-6L10 14M18 14v6H4V6h6';
const user = 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zm-8 9a8 8 0 0 1 16 0';
const building = 'M4 21V5l8-3 8 3v16M9 9h1m4 0h1M9 13h1m4 0h1M10 21v-4h4v4M2 21h20';
const flag = 'M5 21V4m0 0h11l-2 4 2 4H5';
const handshake = 'M2 12l4-4 4 2 4-2 4 2 4 2-6 6-4-3-2 1-4-4zm6-4l4 4';
const layers = 'M12 3l9 5-9 5-9-5zm-9 9l9 5 9-5m-18 4l9 5 9-5';
const packageBox = 'M21 8l-9-5-9 5v8l9 5 9-5zM3 8l9 5 9-5m-9 5v8';
const target = 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zm0-4a5 5 0 1 0 0-10 5 5 0 0 0 0 10zm0-4a1 1 0 1 0 0-2 1 1 0 0 0 0 2z';
const map = 'M9 4L3 6v14l6-2 6 2 6-2V4l-6 2zm0 0v14m6-12v14';

export const ICON_PATHS: Record<string, string> = {
  award: award,
  puzzle: puzzle,
  chart: chart,
  shield: shield,
  truck: truck,
  check: check,
  users: users,
  star: star,
  doc: doc,
  arrow: arrow,
  mail: mail,
  phone: phone,
  clock: clock,
  pin: pin,
  'check-circle': checkCircle,
  lightbulb: lightbulb,
  code: code,
  cog: cog,
  database: database,
  wrench: wrench,
  'presentation-chart': presentationChart,
  'clipboard-list': clipboardList,
  search: search,
  calendar: calendar,
  download: download,
  external: external,
  user: user,
  building: building,
  flag: flag,
  handshake: handshake,
  layers: layers,
  package: packageBox,
  target: target,
  map: map,
};

/** Other names content may carry (service icon options, about cards' icon-font classes). */
const ALIASES: Record<string, string> = {
  'chart-bar': 'chart',
  'chart-line': 'chart',
  certificate: 'award',
  industry: 'building',
  bullseye: 'target',
};

/**
 * The path data of an icon by stored name: plain names ('shield') and icon-font classes
 * ('fas fa-shield') alike. A name the site does not draw gets `fallback`'s icon, else the star.
 */
export function iconPath(name: string | null | undefined, fallback = 'star'): string {
  const key = (name ?? '')
    .trim()
    .toLowerCase()
    .replace(/^(fas|far|fab|fa)\s+/, '')
    .replace(/^fa-/, '');
  return ICON_PATHS[key] ?? ICON_PATHS[ALIASES[key] ?? ''] ?? ICON_PATHS[fallback] ?? star;
}
