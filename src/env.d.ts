/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** The signed-in user, set by src/middleware.ts on on-demand routes; null when signed out. */
    user: import('#shared/session.ts').SessionUser | null;
    session: import('#shared/session.ts').SessionInfo | null;
    /** The client address (from the socket, or forwarded headers when TRUST_PROXY=true). */
    clientIp?: string;
    /** The content a public page renders (the publisher's snapshot; the preview's live read). */
    siteContent?: import('#server/content/site-content.ts').SiteContent;
    /**
     * Resolves once the client has taken what was written so far (at once when nothing waits).
     * Astro writes a streamed body without waiting for the socket, so a long stream (the CSV
     * export) waits on this between chunks to keep the server's memory flat.
     */
    drained?: () => Promise<void>;
    /**
     * The publish request a route gives the service that changes what visitors see: the server's
     * engine's (publish/live-site.ts `EngineLocals`, given at start); src/middleware.ts puts one that
     * only logs where none was given (`npm run dev`).
     */
    publish: import('#server/content/changes.ts').RequestPublish;
    /** An administrator's "Publish now" (publish/publisher.ts `publishNow`); absent where no server gave one. */
    publishNow?: (reason: string) => Promise<void>;
    /** The engine's live release and content generation (the insights search); absent where no server gave one. */
    live?: import('#server/publish/live-site.ts').LiveSite;
    /** False with a deploy hook, whose host serves the pages (the insights search then searches every published article). */
    pagesServedHere?: () => boolean;
  }
}
