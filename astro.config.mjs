// @ts-check
import node from '@astrojs/node';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'astro/config';

// As src/server/env.ts reads them: an empty value is unset, and SITE_URL defaults to the port.
const site = process.env.SITE_URL?.trim() || `http://localhost:${process.env.PORT?.trim() || 4321}`;
const siteHost = new URL(site).hostname;
/** `npm run build:static`: every public page prerendered from the database, a deployable static site. */
const prerenderPages = process.env.PRERENDER_PAGES === 'true';

/**
 * The server bundle renders the public pages itself when content is published
 * (src/server/publish/render.ts), so there every route is an on-demand one, and the bundle's entry adds `renderPage` to the
 * node adapter's exports (src/server/astro-entry.ts). A static build prerenders them as usual.
 */
/** @param {import('astro').AstroIntegration} adapter @returns {import('astro').AstroIntegration} */
function renderOnPublish(adapter) {
  return {
    ...adapter,
    hooks: {
      ...adapter.hooks,
      'astro:config:done': (params) =>
        adapter.hooks['astro:config:done']?.({
          ...params,
          setAdapter: (a) =>
            params.setAdapter({
              ...a,
              serverEntrypoint: fileURLToPath(new URL('./src/server/astro-entry.ts', import.meta.url)),
              exports: [...(a.exports ?? []), 'renderPage', 'answerAnonymously', 'main', 'serve', 'bundleApi'],
            }),
        }),
      'astro:route:setup': ({ route }) => {
        if (!prerenderPages) route.prerender = false;
      },
    },
  };
}

export default defineConfig({
  site,
  output: 'static',
  // Middleware mode: scripts/start.ts owns the HTTP server, serves the prerendered pages from
  // memory (precompressed: the adapter's own static serving compresses nothing and reads the disk each time) and hands everything else to Astro.
  adapter: renderOnPublish(node({ mode: 'middleware' })),
  integrations: [react()],
  trailingSlash: 'never',
  build: { format: 'file', inlineStylesheets: 'always' },
  security: {
    // Our middleware checks Origin on every state-changing /api call, JSON ones included (Astro's checkOrigin skips application/json requests).
    checkOrigin: false,
    allowedDomains: [{ hostname: 'localhost' }, { hostname: '127.0.0.1' }, { hostname: siteHost }],
  },
  server: { port: Number(process.env.PORT || 4321) },
  devToolbar: { enabled: false },
  prefetch: false,
  vite: {
    plugins: [tailwindcss()],
    build: { assetsInlineLimit: 0 },
  },
});
