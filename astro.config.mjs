// @ts-check
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
 * The project's own adapter, through Astro's Adapter API: its server entrypoint
 * (src/server/astro-entry.ts) receives the build's manifest and exports the HTTP server's Astro
 * handler, `renderPage` and the server itself (docs/decisions/019-own-astro-adapter.md). The
 * server bundle renders the public pages itself when content is published
 * (src/server/publish/render.ts), so there every route is an on-demand one; a static build
 * prerenders them as usual.
 * @returns {import('astro').AstroIntegration}
 */
function serverBundle() {
  return {
    name: 'procurement-site-server',
    hooks: {
      // `/_image` reads local files from the build, as @astrojs/node's did (Astro's default fetches them over HTTP).
      'astro:config:setup': ({ config, command, updateConfig }) => {
        const { route, entrypoint } = config.image.endpoint;
        const local = command === 'dev' ? 'astro/assets/endpoint/dev' : 'astro/assets/endpoint/node';
        updateConfig({ image: { endpoint: { route: route ?? '_image', entrypoint: entrypoint ?? local } } });
      },
      'astro:config:done': ({ setAdapter }) =>
        setAdapter({
          name: 'procurement-site-server',
          serverEntrypoint: fileURLToPath(new URL('./src/server/astro-entry.ts', import.meta.url)),
          exports: ['handler', 'renderPage', 'answerAnonymously', 'main', 'serve', 'bundleApi'],
          adapterFeatures: { buildOutput: 'server', edgeMiddleware: false },
          supportedAstroFeatures: { staticOutput: 'stable', hybridOutput: 'stable', serverOutput: 'stable', sharpImageService: 'stable' },
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
  // src/server/main.ts owns the HTTP server (web/app-server.ts): it serves the live release's files
  // itself and hands everything else to the adapter's handler.
  adapter: serverBundle(),
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
