/**
 * The server bundle's entry: the server entrypoint of the project's own Astro adapter
 * (astro.config.mjs), as Astro's Adapter API has it: Astro calls `createExports` with the build's
 * manifest, and the bundle exports what it returns. That is `handler`, the Astro side of the
 * HTTP server (web/app-server.ts), `renderPage`, which renders one route of the public site in
 * this process, from the content snapshot it is given, for the publisher
 * (src/server/publish/render.ts), `answerAnonymously`, a visitor's answer from a public endpoint
 * (web/public-api-cache.ts), and the server itself: `main` (`npm start`), `serve` and `bundleApi`
 * (the test suites; main.ts, bundle-api.ts). Serving processes load the server code only through
 * this bundle, one copy. Everything here is the documented API of `astro/app` (`App`, and
 * `NodeApp` for Node's requests and responses); docs/decisions/019-own-astro-adapter.md says why.
 *
 * The public pages are on-demand routes in this bundle only so that the publisher can render them;
 * visitors get them from the live release. A request for one that reaches Astro (a path the
 * release does not have, such as an unknown insight) goes on to the server's not-found answer.
 */
import type { RouteData, SSRManifest } from 'astro';
import { App } from 'astro/app';
import { NodeApp } from 'astro/app/node';
import type { RenderPage } from './content/site-content';
import { RELEASE_ROUTES } from './content/routes';
import { GENERATED_STATEMENT_PATH } from '#shared/documents.ts';
import { bundleApi } from './bundle-api';
import { log } from './log';
import { main, serve, type ServeOptions } from './main';
import type { AstroHandler } from './web/app-server';
import type { AnswerAnonymously } from './web/public-api-cache';

/** Never fetch an error page over the network: every route of this bundle is rendered on demand. */
const noErrorPageFetch = () => Promise.resolve(new Response(null, { status: 404 }));

/** The generated statement's address is the one release route a visitor may reach Astro with: a release without it sends her on to the statement the site offers. */
const isReleaseRoute = (route: RouteData) => RELEASE_ROUTES.has(route.route) && route.route !== GENERATED_STATEMENT_PATH;

export function createExports(manifest: SSRManifest) {
  // Requests: streamed answers, as the node adapter gives them.
  const app = new NodeApp(manifest);
  // Our renders, one instance per site URL: whole bodies (no streaming), and `Astro.site` is the site's.
  const apps = new Map<string, App>();
  const appFor = (site: string) => {
    let app = apps.get(site);
    if (!app) apps.set(site, (app = new App({ ...manifest, site }, false)));
    return app;
  };
  // A promise a page or endpoint drops is logged; it does not end the process.
  process.on('unhandledRejection', (err) => log.error('unhandled rejection', { err }));

  const handler: AstroHandler = async (req, res, next, locals) => {
    const request = NodeApp.createRequest(req, { allowedDomains: app.getAllowedDomains() ?? [] });
    const routeData = app.match(request);
    if (next && (!routeData || isReleaseRoute(routeData))) return next();
    const response = await app.render(request, {
      addCookieHeader: true,
      routeData,
      locals,
      prerenderedErrorPageFetch: noErrorPageFetch,
    });
    await NodeApp.writeResponse(response, res);
  };
  // A visitor's GET of a public endpoint, with no cookie: what the public API cache keeps.
  const answerAnonymously: AnswerAnonymously = (pathname) =>
    appFor(manifest.site ?? '').render(new Request(new URL(pathname, 'http://localhost')), {
      clientAddress: '127.0.0.1',
      prerenderedErrorPageFetch: noErrorPageFetch,
    });
  const renderPage: RenderPage = (urlPath, site, content) =>
    appFor(site).render(new Request(new URL(urlPath, site)), {
      locals: { siteContent: content, user: null, session: null },
      // A failed render is a failed publish.
      prerenderedErrorPageFetch: noErrorPageFetch,
    });
  return {
    handler,
    renderPage,
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
