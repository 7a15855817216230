import { configuredProviders } from '#server/auth/better-auth.ts';
import { defineHandler, json } from '#server/http.ts';

export const prerender = false;

/** The third-party sign-in providers configured by environment; the sign-in page offers only these. */
export const GET = defineHandler(() => json({ providers: configuredProviders() }));
