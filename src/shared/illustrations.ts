import type { ServiceIcon } from './constants.ts';
import { IMAGE_BOXES, type SiteImage } from './images.ts';

/**
 * The site's own illustrations (`public/images/art`: SVG drawn for this site in its palette, a few
 * KB each), shown where no photo has been uploaded: beside the page heroes and as each service's
 * picture. All share the service image box (1000×600), so every `<img>` has its size up front.
 */
export const ILLUSTRATIONS = {
  network: '/images/art/network.svg',
  federal: '/images/art/federal.svg',
  manufacturing: '/images/art/manufacturing.svg',
  consulting: '/images/art/consulting.svg',
  strategy: '/images/art/strategy.svg',
  sourcing: '/images/art/sourcing.svg',
  compliance: '/images/art/compliance.svg',
  services: '/images/art/services.svg',
  about: '/images/art/about.svg',
  capabilities: '/images/art/capabilities.svg',
  insights: '/images/art/insights.svg',
} as const;
export type Illustration = keyof typeof ILLUSTRATIONS;

/**
 * Each page's hero picture: its own, never another page's, nor one of the pictures the service
 * cards fall back to (strategy, sourcing, compliance), so no two places on the site repeat one.
 */
export const PAGE_ART = {
  home: 'network',
  services: 'services',
  federal: 'federal',
  partners: 'manufacturing',
  consulting: 'consulting',
  capabilities: 'capabilities',
  about: 'about',
  insights: 'insights',
} as const satisfies Record<string, Illustration>;

/** An illustration as the pages draw it: decorative (empty alt), in the service image box. */
export function illustrationImage(name: Illustration): SiteImage {
  return { src: ILLUSTRATIONS[name], alt: '', ...IMAGE_BOXES.service };
}

/** Which picture a consulting service gets, by the icon chosen for it (SPEC 3's options). */
const BY_SERVICE_ICON: Record<ServiceIcon, Illustration> = {
  'chart-bar': 'strategy',
  'presentation-chart': 'strategy',
  lightbulb: 'strategy',
  clock: 'strategy',
  users: 'sourcing',
  database: 'sourcing',
  cog: 'sourcing',
  wrench: 'sourcing',
  code: 'sourcing',
  'clipboard-list': 'compliance',
  'check-circle': 'compliance',
  shield: 'compliance',
};
const ROTATION: readonly Illustration[] = ['strategy', 'sourcing', 'compliance'];

/**
 * A service's picture until an image is uploaded for it: the one its icon calls for; a service whose
 * icon is not one of the options gets the picture of its place in the list, so neighbours differ.
 */
export function serviceIllustration(icon: string | null | undefined, index: number): Illustration {
  return BY_SERVICE_ICON[icon as ServiceIcon] ?? ROTATION[index % ROTATION.length]!;
}
