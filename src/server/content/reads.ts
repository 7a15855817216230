import { createHash } from 'node:crypto';
import { memoOfFrozen } from './frozen';

/**
 * What each page reads of the content snapshot, recorded while it renders: the dependency map
 * from content to routes that lets a publish render only the pages a change touches
 * (publish/render.ts). It is recorded rather than declared by hand because a hand-kept map goes
 * stale the day a component starts showing one more field, and a page that missed a change would
 * stay wrong without anyone noticing; a recorded read cannot be forgotten.
 *
 * A read is a path into the snapshot. Items of a list that have an `id` are named by it, not by
 * their place, so a page that shows one insight does not depend on where that insight sits in the
 * list; walking a list (its length, iterating it) reads the list's ids in order, so adding,
 * removing or reordering items touches the pages that list them. Lists of plain values are read
 * whole, as is an object whose keys are enumerated.
 */

/**
 * A step of a read: an object key, the item of a list with this id, (last) the list's ids in
 * order, or (last) the id of the item whose `field` is `value` (findItem).
 */
type Step = { key: string } | { id: string | number } | { ids: true } | { match: [string, unknown] };
export type Read = Step[];

const isObject = (v: unknown): v is object => typeof v === 'object' && v !== null;
const hasId = (v: unknown): v is { id: string | number } =>
  isObject(v) && !Array.isArray(v) && (typeof (v as { id?: unknown }).id === 'number' || typeof (v as { id?: unknown }).id === 'string');
/**
 * What a list holds (whether every item has an id; its items by id and by a looked-up field),
 * remembered for frozen lists (a snapshot's, content/site-content.ts): each page's recording wraps
 * the same lists (thousands of articles).
 */
const isListOfItems = memoOfFrozen((list: unknown[]) => list.length > 0 && list.every(hasId));
const idIndex = memoOfFrozen((list: unknown[]) => new Map<unknown, unknown>(list.filter(hasId).map((item) => [item.id, item])));
const fieldIndexes = memoOfFrozen((_list: unknown[]) => new Map<string, Map<unknown, unknown>>());

/**
 * The lookup a recorded list answers `findItem` with. Not registered (no `Symbol.for`): the pages
 * and the recorder are one copy of this module, the server bundle's (publish/render.ts records
 * with the bundle's `recordReads` whenever it renders with the bundle's pages).
 */
const LOOKUP = Symbol('findItem');
type Lookup = (field: string, value: unknown) => unknown;

/**
 * The item of `list` whose `field` is `value`. On recorded content the page then depends on which
 * item that is and on what it reads of it, not on the rest of the list: an insight's page is not
 * rendered again because another insight was added.
 */
export function findItem<T extends object>(list: readonly T[], field: keyof T & string, value: unknown): T | undefined {
  const lookup = (list as unknown as { [LOOKUP]?: Lookup })[LOOKUP];
  if (lookup) return lookup(field, value) as T | undefined;
  return list.find((item) => (item as Record<string, unknown>)[field] === value);
}

/** A page that tries to change the content it renders from: the publish fails, naming what it touched. */
function refuse(what: string, at: string): never {
  throw new TypeError(`a page tried to ${what} the content it renders from (at ${at}]): the content is read-only`);
}

/**
 * A read as its JSON text is made by appending steps to its path's text: `at` is the text of the
 * path so far without the closing `]` (`[` for the root). A page of /insights makes thousands of
 * reads, each of which would otherwise be serialised whole.
 */
const step = (at: string, stepJson: string) => (at === '[' ? `[${stepJson}` : `${at},${stepJson}`);
const keyStep = (key: string) => `{"key":${JSON.stringify(key)}}`;
const idStep = (id: string | number) => `{"id":${JSON.stringify(id)}}`;
const IDS = '{"ids":true}';

/**
 * Wraps `content` so that every value a page reads is recorded. The wrapped copy behaves as the
 * content (same values, lists are lists) but cannot be changed: setting, defining or deleting a
 * property throws, so a page that sorted a list in place fails its publish instead of changing the
 * snapshot the next publish compares with. `keys()` gives the distinct reads so far as JSON text,
 * `reads()` as paths.
 *
 * Each proxy stands on an empty object (or list) and answers from the content: a snapshot is
 * frozen, and a proxy of a frozen object could not answer a wrapped value. Its handler is a small
 * object of the classes below (the traps are shared methods): a page of /insights or the sitemap
 * wraps thousands of rows.
 */
export function recordReads<T extends object>(content: T): { content: T; reads(): Read[]; keys(): string[] } {
  const recorder = new Recorder();
  return {
    content: recorder.wrap(content, '[') as T,
    reads: () => [...recorder.seen].map((key) => JSON.parse(key) as Read),
    keys: () => [...recorder.seen],
  };
}

/** The reads of one page so far, and the proxy of each value it reached. */
class Recorder {
  readonly seen = new Set<string>();
  private readonly proxies = new WeakMap<object, object>();
  /** What every proxy stands on: never changed, as every trap that would change it throws. */
  private readonly objectTarget = Object.create(null) as object;
  private readonly listTarget: unknown[] = [];

  record(at: string): void {
    this.seen.add(`${at}]`);
  }

  wrap(value: unknown, at: string): unknown {
    if (!isObject(value)) {
      this.record(at);
      return value;
    }
    const cached = this.proxies.get(value);
    if (cached) return cached;
    const proxy = Array.isArray(value)
      ? new Proxy(this.listTarget, new ListReads(this, value as unknown[], at))
      : new Proxy(this.objectTarget, new ObjectReads(this, value as Record<string, unknown>, at));
    this.proxies.set(value, proxy);
    return proxy;
  }
}

/** The traps that would change the content: each throws, naming where. */
class ReadOnly {
  constructor(
    protected readonly recorder: Recorder,
    protected readonly at: string,
  ) {}
  set(): boolean {
    return refuse('set a property of', this.at);
  }
  defineProperty(): boolean {
    return refuse('define a property of', this.at);
  }
  deleteProperty(): boolean {
    return refuse('delete a property of', this.at);
  }
  preventExtensions(): boolean {
    return refuse('freeze', this.at);
  }
  setPrototypeOf(): boolean {
    return refuse('change the prototype of', this.at);
  }
}

/** An object of the content: each key read is recorded; enumerating its keys reads it whole. */
class ObjectReads extends ReadOnly implements ProxyHandler<object> {
  constructor(
    recorder: Recorder,
    private readonly object: Record<string, unknown>,
    at: string,
  ) {
    super(recorder, at);
  }
  get(_: object, prop: string | symbol): unknown {
    if (typeof prop === 'symbol') return Reflect.get(this.object, prop);
    if (!Object.prototype.hasOwnProperty.call(this.object, prop)) {
      // An absent key (or an inherited method): it may be there in the next snapshot.
      if (!(prop in Object.prototype)) this.recorder.record(step(this.at, keyStep(prop)));
      return Reflect.get(this.object, prop);
    }
    return this.recorder.wrap(this.object[prop], step(this.at, keyStep(prop)));
  }
  has(_: object, prop: string | symbol): boolean {
    if (typeof prop === 'string') this.recorder.record(step(this.at, keyStep(prop)));
    return Reflect.has(this.object, prop);
  }
  ownKeys(): (string | symbol)[] {
    this.recorder.record(this.at);
    return Reflect.ownKeys(this.object);
  }
  // `Object.hasOwn`, `Object.keys`, spreading: each key asked for is a read of it.
  getOwnPropertyDescriptor(_: object, prop: string | symbol): PropertyDescriptor | undefined {
    const d = Reflect.getOwnPropertyDescriptor(this.object, prop);
    if (typeof prop !== 'string') return d && { ...d, configurable: true };
    const at = step(this.at, keyStep(prop));
    this.recorder.record(at);
    if (!d) return d;
    return { ...d, configurable: true, ...('value' in d ? { value: this.recorder.wrap(d.value, at) } : {}) };
  }
  getPrototypeOf(): object | null {
    return Reflect.getPrototypeOf(this.object);
  }
}

/** Not an item of the list (`ListReads.item`). */
const NOT_AN_ITEM = Symbol('not an item');

/**
 * A list of the content. Items with ids are named by them (reaching one by its place, or walking
 * the list, reads the list's ids in order); a list of plain values (NAICS codes, variant widths)
 * is one value.
 */
class ListReads extends ReadOnly implements ProxyHandler<unknown[]> {
  private readonly items: boolean;
  private readonly ids: string;
  private lookupFn: Lookup | undefined;

  constructor(
    recorder: Recorder,
    private readonly list: unknown[],
    at: string,
  ) {
    super(recorder, at);
    this.items = isListOfItems(list);
    this.ids = step(at, IDS);
  }

  /** `findItem` on the list: found through the list's index of that field, as a read is resolved, not by a walk. */
  private lookup(): Lookup {
    return (this.lookupFn ??= (field, value) => {
      this.recorder.record(step(this.at, JSON.stringify({ match: [field, value] })));
      const item = itemWhere(this.list, field, value);
      return hasId(item) ? this.recorder.wrap(item, step(this.at, idStep(item.id))) : item;
    });
  }

  /** The (wrapped) item at a numeric key, or NOT_AN_ITEM for any other key. */
  private item(prop: string | symbol): unknown {
    if (typeof prop !== 'string' || !/^\d+$/.test(prop)) return NOT_AN_ITEM;
    const found = this.list[Number(prop)] as { id: string | number } | undefined;
    // Reaching an item by its place depends on which item is there.
    this.recorder.record(this.ids);
    return found === undefined ? undefined : this.recorder.wrap(found, step(this.at, idStep(found.id)));
  }

  get(_: unknown[], prop: string | symbol): unknown {
    if (prop === LOOKUP) return this.lookup();
    if (!this.items) {
      this.recorder.record(this.at);
      return Reflect.get(this.list, prop);
    }
    const found = this.item(prop);
    if (found !== NOT_AN_ITEM) return found;
    if (prop === 'length' || prop === Symbol.iterator) this.recorder.record(this.ids);
    // Array methods (map, filter, find…) get the proxy as `this`, so they read through it.
    return Reflect.get(this.list, prop);
  }
  has(_: unknown[], prop: string | symbol): boolean {
    this.recorder.record(this.items ? this.ids : this.at);
    return Reflect.has(this.list, prop);
  }
  ownKeys(): (string | symbol)[] {
    this.recorder.record(this.items ? this.ids : this.at);
    return Reflect.ownKeys(this.list);
  }
  getOwnPropertyDescriptor(target: unknown[], prop: string | symbol): PropertyDescriptor | undefined {
    const d = Reflect.getOwnPropertyDescriptor(this.list, prop);
    if (!d) return d;
    // `length` is the stand-in's own (a list's is never configurable): its value, writable as the stand-in's.
    if (prop === 'length') {
      this.recorder.record(this.items ? this.ids : this.at);
      return { ...Reflect.getOwnPropertyDescriptor(target, prop), value: d.value as number };
    }
    if (!this.items) {
      this.recorder.record(this.at);
      return { ...d, configurable: true };
    }
    const found = this.item(prop);
    return { ...d, configurable: true, ...(found !== NOT_AN_ITEM ? { value: found } : {}) };
  }
  getPrototypeOf(): object | null {
    return Reflect.getPrototypeOf(this.list);
  }
}

function itemWithId(list: unknown[], id: unknown): unknown {
  return idIndex(list).get(id);
}

function itemWhere(list: unknown[], field: string, value: unknown): unknown {
  const fields = fieldIndexes(list);
  let index = fields.get(field);
  if (!index) {
    index = new Map();
    // The first match, as Array.prototype.find gives it.
    for (const item of list)
      if (isObject(item) && !index.has((item as Record<string, unknown>)[field])) index.set((item as Record<string, unknown>)[field], item);
    fields.set(field, index);
  }
  return index.get(value);
}

/** The value a read names in a snapshot (undefined where it is absent). */
function resolve(content: unknown, read: Read): unknown {
  let v: unknown = content;
  for (const step of read) {
    if ('key' in step) v = isObject(v) && !Array.isArray(v) ? (v as Record<string, unknown>)[step.key] : undefined;
    else if ('id' in step) v = Array.isArray(v) ? itemWithId(v, step.id) : undefined;
    else if ('match' in step) {
      const item = Array.isArray(v) ? itemWhere(v, step.match[0], step.match[1]) : undefined;
      v = hasId(item) ? item.id : item;
    } else v = Array.isArray(v) ? v.map((item) => (hasId(item) ? item.id : item)) : v;
  }
  return v;
}

/**
 * Whether a read reaches, in `content` and in `before`, one and the same object that `unchanging`
 * vouches was never changed (an insight row two snapshots share): it then gives in `content` what
 * it gave in `before`, without being worked out again.
 */
export function readsShared(read: Read, content: unknown, before: unknown, unchanging: (value: object) => boolean): boolean {
  let v = content;
  let w = before;
  for (const step of read) {
    if (v === w && isObject(v) && unchanging(v)) return true;
    if ('key' in step) {
      v = isObject(v) && !Array.isArray(v) ? (v as Record<string, unknown>)[step.key] : undefined;
      w = isObject(w) && !Array.isArray(w) ? (w as Record<string, unknown>)[step.key] : undefined;
    } else if ('id' in step) {
      v = Array.isArray(v) ? itemWithId(v, step.id) : undefined;
      w = Array.isArray(w) ? itemWithId(w, step.id) : undefined;
    } else return false;
  }
  return v === w && isObject(v) && unchanging(v);
}

/**
 * What a read gives in a snapshot, as a short text: a release keeps it for each of its reads, so
 * the next publish compares without the old snapshot. A value whose JSON is no longer than a digest
 * (a slug, a date, a switch: most reads) is kept as it is, after `=` (which never starts a base64
 * digest); a longer one as its SHA-1 digest.
 */
export function readValue(content: unknown, read: Read): string {
  const json = JSON.stringify(resolve(content, read)) ?? 'undefined';
  return json.length < 28 ? `=${json}` : createHash('sha1').update(json).digest('base64');
}

/** Whether a page that made these reads of `before` would read anything different in `after` (as a publish decides it). */
export function readsChanged(reads: Read[], before: unknown, after: unknown): boolean {
  return reads.some((read) => readValue(before, read) !== readValue(after, read));
}
