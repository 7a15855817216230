/**
 * The server bundle's entry (astro.config.mjs puts it in place of @astrojs/node's own): the node
 * adapter's exports, plus `renderPage`, which renders one route of the public site in this
 * process, from the content snapshot it is given, for the publisher (src/server/publish/render.ts),
 * `answerAnonymously`, a visitor's answer from a public endpoint (web/public-api-cache.ts), and
 * the server itself: `main` (`npm start`), `serve` and `bundleApi` (the test suites; main.ts,
 * bundle-api.ts). Serving processes load the server code only through this bundle, one copy.
 *
 * The public pages are on-demand routes in this bundle only so that the publisher can render them;
 * visitors get them from the live release. A request for one that reaches Astro (a path the
 * release does not have, such as an unknown insight) goes on to the server's not-found answer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createExports as nodeExports, start } from '@astrojs/node/server.js';
import type { SSRManifest } from 'astro';
import { App } from 'astro/app';
import type { RenderPage } from './content/site-content';
import { RELEASE_ROUTES } from './content/routes';
import { GENERATED_STATEMENT_PATH } from '#shared/documents.ts';
import { bundleApi } from './bundle-api';
import { main, serve, type ServeOptions } from './main';
import type { AnswerAnonymously } from './web/public-api-cache';

type NodeOptions = Parameters<typeof nodeExports>[1];

export function createExports(manifest: SSRManifest, options: NodeOptions) {
  const node = nodeExports(manifest, options);
  // Our own instances, one per site URL: whole bodies (no streaming), and `Astro.site` is the
  // site's; the adapter's instance keeps serving requests.
  const apps = new Map<string, App>();
  const appFor = (site: string) => {
    let app = apps.get(site);
    if (!app) apps.set(site, (app = new App({ ...manifest, site }, false)));
    return app;
  };
  const isReleaseRoute = (req: IncomingMessage) => {
    const route = appFor(manifest.site ?? '').match(new Request(new URL(req.url ?? '/', 'http://localhost')));
    // The generated statement's address is the one release route a visitor may reach Astro with:
    // a release without it sends her on to the statement the site offers.
    return route !== undefined && RELEASE_ROUTES.has(route.route) && route.route !== GENERATED_STATEMENT_PATH;
  };
  const handler = async (req: IncomingMessage, res: ServerResponse, next?: (err?: unknown) => void, locals?: object) => {
    if (next && isReleaseRoute(req)) return next();
    await node.handler(req, res, next, locals);
  };
  // A visitor's GET of a public endpoint, with no cookie: what the public API cache keeps.
  const answerAnonymously: AnswerAnonymously = (pathname) =>
    appFor(manifest.site ?? '').render(new Request(new URL(pathname, 'http://localhost')), {
      clientAddress: '127.0.0.1',
    });
  return {
    ...node,
    handler,
    renderPage: ((urlPath, site, content) =>
      appFor(site).render(new Request(new URL(urlPath, site)), {
        locals: { siteContent: content, user: null, session: null },
        // Never fetch an error page over the network: a failed render is a failed publish.
        prerenderedErrorPageFetch: () => Promise.resolve(new Response(null, { status: 404 })),
      })) satisfies RenderPage,
    answerAnonymously,
    /** `npm start` (scripts/start.mjs). */
    main: () => main({ handler, answerAnonymously }),
    /** The server on a database of the caller's, for the test suites. */
    serve: (opts?: ServeOptions) => serve({ handler, answerAnonymously }, opts),
    bundleApi,
  };
}

/** The bundle's exports (dist/server/entry.mjs), as the processes that load it see them. */
export type ServerBundle = ReturnType<typeof createExports>;

export { start };
