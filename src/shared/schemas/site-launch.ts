import { z } from 'zod';

/**
 * Whether the site is launched: visible to search engines. A new install starts hidden (every page
 * `noindex`, robots.txt refusing all); `PUT /api/admin/site-launch` takes exactly this.
 */
export const siteLaunchSchema = z.strictObject({
  launched: z.boolean({ error: 'Launched must be true or false' }),
});
export type SiteLaunch = z.output<typeof siteLaunchSchema>;

/** `POST /api/admin/launch-checklist/keep`: keep a starter item as it is ("Keep as mine"). */
export const keepStarterSchema = z.strictObject({
  key: z.string({ error: 'Key is required' }).trim().min(1, 'Key is required').max(100, 'Key must be at most 100 characters'),
});
