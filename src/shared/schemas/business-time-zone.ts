import { z } from 'zod';

/** The business's time zone until the owner chooses another: where the business is. */
export const DEFAULT_TIME_ZONE = 'America/New_York';

/**
 * The IANA time zones this runtime's Intl knows, plus UTC (which `Intl.supportedValuesOf` leaves
 * out, though every formatter takes it). The server checks against its own list, the form against
 * the browser's: both are the same tz database as shipped with ICU.
 */
export function knownTimeZones(): string[] {
  return ['UTC', ...Intl.supportedValuesOf('timeZone')];
}

/** Longest IANA name is 30 characters (America/Argentina/ComodRivadavia); the cap leaves room. */
const MAX_TIME_ZONE = 64;

/**
 * The business's time zone: the Contacts tab's CSV export writes its dates in it.
 * `PUT /api/admin/time-zone` takes exactly this.
 */
export const businessTimeZoneSchema = z.strictObject({
  timeZone: z
    .string({ error: 'Time zone is required' })
    .trim()
    .min(1, 'Time zone is required')
    .max(MAX_TIME_ZONE, `Time zone must be at most ${MAX_TIME_ZONE} characters`)
    .refine((tz) => knownTimeZones().includes(tz), 'Choose a time zone from the list'),
});
export type BusinessTimeZone = z.output<typeof businessTimeZoneSchema>;
