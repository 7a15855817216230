import type { RequestPublish } from '../content/changes';
import type { StaticFile, StaticMap } from '../web/static-site';

/*
 * The live release. The publisher (publish/go-live.ts) hands over a finished release: its
 * description and its files, described for serving (publish/release-files.ts). A swap replaces the map reference in one
 * assignment, so each request sees either the old release or the new one, never a mix and never a
 * missing page. Hashed assets of earlier releases stay for a grace period for pages already open
 * in browsers. This module knows nothing of how releases are made, and holds
 * nothing itself: each engine has its own `LiveSite`.
 */

/** A finished release as the publisher describes it (its release.json). */
export interface ReleaseInfo {
  id: string;
  contentHash: string;
  codeVersion: string;
  /**
   * The site address (SITE_URL, as `currentSiteUrl` reads it) its pages were rendered for: their
   * canonical links, the sitemap and the feed name it. Absent in a release made before it was kept.
   */
  site?: string;
  builtAt: string;
  /**
   * From the start of the build until the release could be served (its new pages rendered,
   * written and checked); linking the pages it kept from the previous release comes after, and
   * the compressed copies of its new pages once it is live (publish/go-live.ts).
   */
  durationMs: number;
  /** Of which rendering and writing the pages (the rest: checking them). */
  astroMs?: number;
  pages: number;
}

const ASSET_GRACE_MS = 10 * 60 * 1000;

/**
 * The release visitors get and the content generation, for one engine (publish/release-store.ts
 * holds it; the HTTP layer reads it per request). The generation counts changes to what visitors
 * see: a publish request, a release going live, another instance's publish. Answers kept in memory
 * for visitors (public-api-cache.ts, the search's) are served only while it is what it was when
 * they were made.
 */
export class LiveSite {
  private map: StaticMap = new Map();
  private info: ReleaseInfo | null = null;
  /** Assets no longer in the live release → when they left it. */
  private readonly retired = new Map<string, { file: StaticFile; since: number }>();
  private changes = 0;

  /** The live release's files (empty until one is served). */
  readonly site = (): StaticMap => this.map;

  /** The live release's description (null until one is served). */
  readonly release = (): ReleaseInfo | null => this.info;

  /** The content generation. */
  readonly generation = (): number => this.changes;

  /** What visitors see has changed (or is about to): answers kept for them are made again. */
  readonly changed = (): void => void this.changes++;

  /** Makes `files` (the release `info`, read into memory) the pages visitors get, from the next request on. */
  serve(info: ReleaseInfo, files: StaticMap): void {
    const now = Date.now();
    for (const [key, file] of this.map) {
      if (key.startsWith('/_astro/') && !files.has(key)) this.retired.set(key, { file, since: now });
    }
    for (const [key, { file, since }] of this.retired) {
      if (files.has(key) || now - since > ASSET_GRACE_MS) this.retired.delete(key);
      else files.set(key, file);
    }
    this.map = files;
    this.info = info;
    this.changed();
  }
}

/**
 * What the server hands every on-demand route of its engine (in `Astro.locals`, app-server.ts):
 * the publish request a route passes to the service that changes public content, "publish now",
 * and the live site.
 */
export interface EngineLocals {
  publish: RequestPublish;
  publishNow: (reason: string) => Promise<void>;
  live: LiveSite;
  /** False with a deploy hook: the pages visitors get are the host's, not `live`'s. */
  pagesServedHere: () => boolean;
}
