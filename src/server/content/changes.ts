import { log } from '../log';

/*
 * What changed in the content visitors see. A service that writes such content is given the
 * publish request to call (`RequestPublish`) by its caller, and calls it once the write is done:
 * a route passes the one the server was started with (`locals.publish`: the engine's, which calls
 * its publisher, publish/release-store.ts and publisher.ts). With none (`npm run dev`, a script)
 * a change is only logged (`onlyLogged`).
 */

/** What kind of content changed; `database` is all of it (a restore). */
export type ContentKind =
  | 'capability-statement'
  | 'company-profile'
  | 'contact-info'
  | 'content-block'
  | 'database'
  | 'document'
  | 'feature'
  | 'header'
  | 'header-cta'
  | 'insight'
  | 'past-performance'
  | 'service'
  | 'site-launch';

export interface ContentChange {
  kind: ContentKind;
  /** The row that changed; null when the change is not one row's. */
  id: number | null;
  action: 'created' | 'updated' | 'deleted' | 'restored';
}

/**
 * Asks for a publish of a change to what visitors see; resolves once the request is recorded. A
 * service calls the one it was given after its write is done (awaiting it is optional; it never
 * rejects).
 */
export type RequestPublish = (change: ContentChange) => Promise<void>;

/** A change in words, e.g. `feature 12 updated` (logs, the publish job's reason). */
export function describeChange(change: ContentChange): string {
  return [change.kind, change.id, change.action].filter((part) => part !== null).join(' ');
}

/** The publish request where nothing publishes (`npm run dev`, a command-line script): the change is logged. */
export const onlyLogged: RequestPublish = async (change) => {
  log.debug('content changed (no publisher)', { change: describeChange(change) });
};
