import { queryOptions } from '@tanstack/react-query';
import { api } from '#lib/api-client.ts';
import type { LaunchChecklist } from '#shared/launch-checklist.ts';
import { LAUNCH_CHECKLIST_KEY, useAdminMutation } from './mutation';

/**
 * GET /api/admin/launch-checklist: whether the site is launched, and what is still to do before
 * launching (starter content, a profile's missing facts). Every save changes it: read again on
 * every mount and when the window regains focus.
 */
export const launchChecklistQuery = queryOptions({
  queryKey: LAUNCH_CHECKLIST_KEY,
  queryFn: () => api.get<LaunchChecklist>('/api/admin/launch-checklist'),
  staleTime: 0,
});

/** PUT /api/admin/site-launch: launch the site, or hide it from search engines again; publishes every page. */
export function useSetLaunched() {
  return useAdminMutation<boolean, { launched: boolean }>({
    mutationFn: (launched) => api.put<{ launched: boolean }>('/api/admin/site-launch', { launched }),
    invalidate: [LAUNCH_CHECKLIST_KEY],
    success: (launched) =>
      launched ? 'Your site is launched: search engines may now index it' : 'Your site is hidden from search engines',
    failure: (launched) => (launched ? 'Failed to launch the site' : 'Failed to hide the site'),
    page: () => '/',
  });
}

/** POST /api/admin/launch-checklist/keep: keep a starter item as it is. */
export function useKeepStarter() {
  return useAdminMutation<string, LaunchChecklist>({
    mutationFn: (key) => api.post<LaunchChecklist>('/api/admin/launch-checklist/keep', { key }),
    invalidate: [LAUNCH_CHECKLIST_KEY],
    success: 'Kept as yours: it leaves the checklist',
    failure: 'Failed to keep it',
  });
}
