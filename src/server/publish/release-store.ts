import { describeChange, type ContentChange } from '../content/changes';
import type { SnapshotMemo } from '../content/site-content';
import { log } from '../log';
import { LiveSite } from './live-site';
import type { BuildMemo, BuildMemoSlot } from './render';

/*
 * Everything one publishing engine holds between publishes, in one object that its parts are
 * given (docs/decisions/020-one-release-store.md): the publisher and the follower publish into it
 * (go-live.ts), the HTTP layer serves its live release (`live.site`). Nothing of it lives in a
 * module, so two engines can run side by side in one process (the tests do).
 */

/** The compressing of the live release's new pages, once it went live (go-live.ts). */
export interface Compressing {
  stop: () => void;
  done: Promise<void>;
}

export class ReleaseStore implements BuildMemoSlot {
  /** The live release, its files' descriptions, and the content generation: what visitors get. */
  readonly live = new LiveSite();
  /** The reads of the last release this engine built, and the snapshot it rendered (render.ts). */
  built: BuildMemo | undefined;
  /** The insight rows of the last snapshot read, by id: the next reads only the changed ones. */
  readonly snapshots: SnapshotMemo = {};
  /** The live release's pages being compressed, if they are. */
  compressing: Compressing | undefined;
  /** The publisher publishing into this store, while one runs (publisher.ts `startPublisher` sets it). */
  publisher: { mode: 'local' | 'webhook'; request(reason: string): Promise<void>; stop(): Promise<void> } | undefined;

  /**
   * Whether visitors get the pages from this engine's releases: not with a deploy hook, whose host
   * builds and serves them (this engine's release is then only rendered at start).
   */
  readonly pagesServedHere = (): boolean => this.publisher?.mode !== 'webhook';

  /**
   * The publish request the server gives the routes (content/changes.ts `RequestPublish`): what
   * visitors see has changed, so answers kept for them are made again, and this store's publisher
   * records a publish job. With no publisher running (the integration tests of other features)
   * the change is only logged: nothing builds. Never rejects.
   */
  readonly requestPublish = async (change: ContentChange): Promise<void> => {
    this.live.changed();
    const publisher = this.publisher;
    if (!publisher) return log.debug('content changed (no publisher running)', { change: describeChange(change) });
    await publisher
      .request(describeChange(change))
      .catch((err: unknown) => log.error('handling a content change failed', { change: describeChange(change), err }));
  };
}
