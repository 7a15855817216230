import type { APIRoute } from 'astro';
import { finishProviderSignIn } from '#server/auth/provider-callback.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler } from '#server/http.ts';

export const prerender = false;

/** The provider's return leg (better-auth's handler), then the second factor if the account has one. */
const handle: APIRoute = defineHandler(async ({ request, locals }) => finishProviderSignIn(await getDb(), request, locals.clientIp));
export const GET = handle;
export const POST = handle;
