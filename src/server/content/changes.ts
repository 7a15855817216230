import { log } from '../log';
import { contentChanged } from './generation';

/*
 * What changed in the content visitors see. A service that writes such content records the change
 * here (`recordChange`) and knows nothing of what follows; the publisher subscribes when it starts
 * (publish/publisher.ts) and turns each change into a publish request. With no subscriber (the
 * integration tests of other features, a command-line script) a change is only logged.
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

type Listener = (change: ContentChange) => Promise<void>;

const listeners = new Set<Listener>();

/** A change in words, e.g. `feature 12 updated` (logs, the publish job's reason). */
export function describeChange(change: ContentChange): string {
  return [change.kind, change.id, change.action].filter((part) => part !== null).join(' ');
}

/**
 * Records that content visitors see has changed (after the write is done). Answers kept for
 * visitors (web/public-api-cache.ts) are made again from here on. Resolves once every subscriber
 * has taken the change (awaiting it is optional; it never rejects).
 */
export async function recordChange(change: ContentChange): Promise<void> {
  contentChanged();
  const subscribers = [...listeners];
  if (subscribers.length === 0) {
    log.debug('content changed (nothing subscribed)', { change: describeChange(change) });
    return;
  }
  await Promise.all(
    subscribers.map((listener) =>
      listener(change).catch((err) => log.error('handling a content change failed', { change: describeChange(change), err })),
    ),
  );
}

/** Calls `listener` with every change recorded from now on; returns the call that unsubscribes. */
export function onContentChange(listener: Listener): () => void {
  // Its own entry, so subscribing one function twice needs two unsubscribes.
  const own: Listener = (change) => listener(change);
  listeners.add(own);
  return () => void listeners.delete(own);
}
