// @ts-check
import node from '@astrojs/node';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'astro/config';

const site = process.env.SITE_URL || 'http://localhost:4321';
const siteHost = new URL(site).hostname;

export default defineConfig({
  site,
  output: 'static',
  // Middleware mode: scripts/start.ts owns the HTTP server, serves the prerendered pages from
  // memory (precompressed: the adapter's own static serving compresses nothing and reads the disk each time) and hands everything else to Astro.
  adapter: node({ mode: 'middleware' }),
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
