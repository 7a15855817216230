import * as F from '#shared/fallbacks.ts';
import type { ContentSection } from '#shared/constants.ts';

/** The content blocks a new install stores: the specification's fallback copy (seed.ts), one per section. */
export const STARTER_BLOCKS: { section: ContentSection; title: string; content: string; buttonText?: string }[] = [
  { section: 'intro', ...F.FALLBACK_INTRO },
  { section: 'home_cta', ...F.FALLBACK_HOME_CTA },
  { section: 'home_services', ...F.FALLBACK_HOME_SERVICES },
  { section: 'about', title: F.FALLBACK_ABOUT.title, content: `${F.FALLBACK_ABOUT.subtitle}\n\n${F.FALLBACK_ABOUT.body}` },
  { section: 'about_mission', ...F.FALLBACK_MISSION },
  { section: 'services_hero', ...F.FALLBACK_SERVICES_HERO },
  { section: 'services_overview', ...F.FALLBACK_SERVICES_OVERVIEW },
];
