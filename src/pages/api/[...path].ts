import type { APIRoute } from 'astro';
import { json } from '#server/http.ts';

export const prerender = false;

/** Any /api path without an endpoint: a JSON 404, never the HTML not-found page. */
export const ALL: APIRoute = () => json({ message: 'Not found' }, { status: 404 });
