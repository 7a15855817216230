import { queryOptions } from '@tanstack/react-query';
import { api } from '#lib/api-client.ts';
import type { PublicContentSection } from '#shared/constants.ts';
import type { ContentBlockValues } from '#shared/schemas/content.ts';
import type { headerSchema } from '#shared/schemas/header.ts';
import type { headerCtaSchema } from '#shared/schemas/header-cta.ts';
import type { Stored, Versioned } from '#shared/schemas/stored.ts';
import { useAdminMutation } from './mutation';

/** A generic content block as the API answers it. */
export type ContentBlock = Versioned &
  Required<Pick<ContentBlockValues, 'title' | 'content'>> & {
    [K in 'buttonText' | 'backgroundImage' | 'imageUrl' | 'imageAlt']-?: Exclude<ContentBlockValues[K], undefined>;
  } & { section: string; isActive: boolean };
/** The header as the API answers it (`active` is only an alias the server accepts on input). */
export type HeaderContent = Omit<Stored<typeof headerSchema>, 'active' | 'isActive'> & { isActive: boolean };
export type HeaderCta = Stored<typeof headerCtaSchema>;

const contentKeys = {
  all: ['content'] as const,
  section: (section: PublicContentSection) => ['content', section] as const,
};

/** Every version of a section, the live one first (GET /api/content/{section}). */
export function sectionQuery<T = ContentBlock>(section: PublicContentSection) {
  return queryOptions({
    queryKey: contentKeys.section(section),
    queryFn: () => api.get<T[]>(`/api/content/${section}`),
  });
}

/*
 * SPEC 7 paths: services_hero and home_cta use POST /api/content and PATCH /api/content/{id};
 * the others POST /api/content/{section} and PATCH /api/content/{section}/{id}.
 */
const GENERIC_PATHS = new Set<PublicContentSection>(['services_hero', 'home_cta', 'services_overview', 'home_services']);

export interface SaveVars {
  /** The record being edited; absent → create. */
  id?: number;
  version?: number;
  values: Record<string, unknown>;
}

function saveSection<T>(section: PublicContentSection, { id, version, values }: SaveVars): Promise<T> {
  const generic = GENERIC_PATHS.has(section);
  if (id === undefined) {
    return generic ? api.post<T>('/api/content', { ...values, section }) : api.post<T>(`/api/content/${section}`, values);
  }
  const body = { ...values, version };
  return generic ? api.patch<T>(`/api/content/${id}`, body) : api.patch<T>(`/api/content/${section}/${id}`, body);
}

/** The public page that shows each section ("View on site" after a save). */
const SECTION_PAGES: Record<PublicContentSection, string> = {
  header: '/',
  'header-cta': '/',
  intro: '/',
  home_cta: '/',
  home_services: '/',
  about: '/about',
  about_mission: '/about',
  services_hero: '/services',
  services_overview: '/services',
};

/** Create-or-update of a section with the SPEC 8 toasts given. */
export function useSaveSection<T = ContentBlock>(
  section: PublicContentSection,
  messages: { success: string; failure: (isCreate: boolean, err: unknown) => string },
) {
  return useAdminMutation<SaveVars, T>({
    mutationFn: (vars) => saveSection<T>(section, vars),
    invalidate: [contentKeys.section(section)],
    success: messages.success,
    page: () => SECTION_PAGES[section],
    failure: (vars, err) => messages.failure(vars.id === undefined, err),
  });
}
