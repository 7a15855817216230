/**
 * Site content with what only administrators can create (published insights, documents,
 * services, cards, stored text that tries to break out of its markup), for the tests that build
 * a release from it.
 */
import type { SiteContent } from '#server/content/site-content.ts';

export const at = (d: string) => `${d}T12:00:00.000Z`;
const stamp = { version: 1, createdAt: at('2026-01-01'), updatedAt: at('2026-01-03') };

const longText =
  ['First paragraph about budgets.', '', 'Second paragraph.', 'Third <b>paragraph</b>.', '', ''].join('\n') + 'x'.repeat(900);
const insight = (over: Partial<SiteContent['insights'][number]>) => ({
  id: 1,
  title: 'Untitled',
  slug: 'untitled',
  category: 'industry_spotlights' as const,
  excerpt: 'An excerpt',
  content: longText,
  isPublished: true,
  publicationDate: at('2026-02-01'),
  readMinutes: 5,
  authorName: 'Dana Reyes',
  authorTitle: 'Procurement Lead',
  featuredImage: null,
  tags: [],
  relatedInsights: [],
  ...stamp,
  ...over,
});

/** Stored text that tries to end the JSON-LD block and run a script of its own. */
export const breakout = (field: string) => `</script><script>alert('${field}')</script><!--`;

export const content = {
  generatedAt: at('2026-03-01'),
  header: null,
  headerCta: {
    id: 1,
    buttonText: 'Hidden CTA',
    buttonLink: '/nowhere',
    buttonStyle: 'primary',
    isVisible: false,
    isActive: true,
    active: true,
    ...stamp,
  },
  blocks: {
    intro: null,
    home_cta: null,
    about: {
      id: 1,
      section: 'about',
      title: 'About Sterling',
      content: 'We <script>alert(1)</script> supply.\n\nBody paragraph one.\nBody paragraph two.',
      buttonText: null,
      backgroundImage: null,
      imageUrl: null,
      isActive: true,
      active: true,
      ...stamp,
    },
    about_mission: null,
    services_hero: null,
    services_overview: null,
    home_services: null,
  },
  homeFeatures: [
    {
      id: 2,
      section: 'home',
      title: 'Second Card',
      description: 'Shown second',
      icon: 'shield',
      displayOrder: 1,
      isActive: true,
      ...stamp,
    },
  ],
  aboutFeatures: [],
  federalFeatures: [
    {
      id: 7,
      section: 'federal',
      title: 'Material Handling',
      description: 'Pallet stackers and lifts.',
      icon: 'truck',
      displayOrder: 0,
      isActive: true,
      ...stamp,
    },
  ],
  services: [
    {
      id: 5,
      title: 'Sourcing Service',
      description: 'We source.',
      icon: 'users',
      imageSrc: null,
      detailedDescription: null,
      isActive: true,
      displayOrder: 0,
      ...stamp,
    },
    {
      id: 4,
      title: 'Audit Service',
      description: 'We audit.',
      icon: 'shield',
      imageSrc: '/uploads/audit.png',
      detailedDescription: 'More detail',
      isActive: true,
      displayOrder: 1,
      ...stamp,
    },
  ],
  insights: [
    insight({
      id: 3,
      title: 'Newest Market Outlook',
      slug: 'newest-market-outlook',
      category: 'market_analysis',
      readMinutes: 12,
      publicationDate: at('2026-02-10'),
    }),
    insight({
      id: 2,
      title: 'Reducing Costs',
      slug: 'reducing-procurement-costs',
      category: 'case_studies',
      excerpt: '',
      content: 'c'.repeat(1000),
      publicationDate: at('2026-02-05'),
    }),
    insight({
      id: 4,
      title: breakout('title'),
      slug: 'script-breakout',
      excerpt: `${breakout('excerpt')} \u2028 & more`,
      authorName: breakout('author'),
      tags: [breakout('tag')],
      publicationDate: at('2026-01-25'),
    }),
    insight({
      id: 1,
      title: 'Short One',
      slug: 'short-one',
      category: 'expert_advice',
      content: 's'.repeat(100),
      publicationDate: at('2026-01-20'),
    }),
  ],
  documents: [
    {
      // Inactive, and first in order: neither listed nor behind any button.
      id: 3,
      title: 'Old Capability Statement',
      description: null,
      category: 'capability',
      isActive: false,
      displayOrder: 0,
      filePath: '/uploads/old-cap.pdf',
      fileName: 'old-cap.pdf',
      fileSize: null,
      fileType: 'application/pdf',
      ...stamp,
    },
    {
      id: 1,
      title: 'Capability Statement 2026',
      description: 'Our one-page profile',
      category: 'capability',
      isActive: true,
      displayOrder: 0,
      filePath: '/uploads/cap.pdf',
      fileName: 'capability-2026.pdf',
      fileSize: 1572864,
      fileType: 'application/pdf',
      ...stamp,
    },
    {
      id: 2,
      title: 'OEM Kit',
      description: null,
      category: 'onboarding',
      isActive: true,
      displayOrder: 1,
      filePath: '/uploads/oem.pdf',
      fileName: 'oem-kit.pdf',
      fileSize: null,
      fileType: 'application/pdf',
      ...stamp,
    },
  ],
  capabilityStatement: { useGenerated: false },
} as unknown as SiteContent;
