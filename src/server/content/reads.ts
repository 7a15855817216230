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
 * Each proxy stands on an empty object (or list) of its own and answers from the content: a
 * snapshot is frozen, and a proxy of a frozen object could not answer a wrapped value.
 */
export function recordReads<T extends object>(content: T): { content: T; reads(): Read[]; keys(): string[] } {
  const seen = new Set<string>();
  const record = (at: string) => void seen.add(`${at}]`);
  const proxies = new WeakMap<object, object>();
  const readOnly = (at: string) => ({
    set: () => refuse('set a property of', at),
    defineProperty: () => refuse('define a property of', at),
    deleteProperty: () => refuse('delete a property of', at),
    preventExtensions: () => refuse('freeze', at),
    setPrototypeOf: () => refuse('change the prototype of', at),
  });

  const wrapList = (list: unknown[], at: string): object => {
    const items = isListOfItems(list);
    const ids = step(at, IDS);
    const lookup: Lookup = (field, value) => {
      record(step(at, JSON.stringify({ match: [field, value] })));
      // Found through the list's index of that field, as a read is resolved, not by a walk.
      const item = itemWhere(list, field, value);
      return hasId(item) ? wrap(item, step(at, idStep(item.id))) : item;
    };
    const item = (prop: string | symbol): { value: unknown } | undefined => {
      if (typeof prop !== 'string' || !/^\d+$/.test(prop)) return undefined;
      const found = list[Number(prop)] as { id: string | number } | undefined;
      // Reaching an item by its place depends on which item is there.
      record(ids);
      return { value: found === undefined ? undefined : wrap(found, step(at, idStep(found.id))) };
    };
    return new Proxy([], {
      ...readOnly(at),
      get(_, prop) {
        if (prop === LOOKUP) return lookup;
        if (!items) {
          // A list of plain values (NAICS codes, variant widths) is one value.
          record(at);
          return Reflect.get(list, prop);
        }
        const found = item(prop);
        if (found) return found.value;
        if (prop === 'length' || prop === Symbol.iterator) record(ids);
        // Array methods (map, filter, find…) get the proxy as `this`, so they read through it.
        return Reflect.get(list, prop);
      },
      has(_, prop) {
        record(items ? ids : at);
        return Reflect.has(list, prop);
      },
      ownKeys() {
        record(items ? ids : at);
        return Reflect.ownKeys(list);
      },
      getOwnPropertyDescriptor(target, prop) {
        const d = Reflect.getOwnPropertyDescriptor(list, prop);
        if (!d) return d;
        // `length` is the stand-in's own (a list's is never configurable): its value, writable as the stand-in's.
        if (prop === 'length') {
          record(items ? ids : at);
          return { ...Reflect.getOwnPropertyDescriptor(target, prop), value: d.value as number };
        }
        if (!items) {
          record(at);
          return { ...d, configurable: true };
        }
        const found = item(prop);
        return { ...d, configurable: true, ...(found ? { value: found.value } : {}) };
      },
      getPrototypeOf: () => Reflect.getPrototypeOf(list),
    });
  };

  const wrapObject = (object: Record<string, unknown>, at: string): object =>
    new Proxy(Object.create(null) as object, {
      ...readOnly(at),
      get(_, prop) {
        if (typeof prop === 'symbol') return Reflect.get(object, prop);
        if (!Object.prototype.hasOwnProperty.call(object, prop)) {
          // An absent key (or an inherited method): it may be there in the next snapshot.
          if (!(prop in Object.prototype)) record(step(at, keyStep(prop)));
          return Reflect.get(object, prop);
        }
        return wrap(object[prop], step(at, keyStep(prop)));
      },
      has(_, prop) {
        if (typeof prop === 'string') record(step(at, keyStep(prop)));
        return Reflect.has(object, prop);
      },
      ownKeys() {
        record(at);
        return Reflect.ownKeys(object);
      },
      // `Object.hasOwn`, `Object.keys`, spreading: each key asked for is a read of it.
      getOwnPropertyDescriptor(_, prop) {
        const d = Reflect.getOwnPropertyDescriptor(object, prop);
        if (typeof prop !== 'string') return d && { ...d, configurable: true };
        record(step(at, keyStep(prop)));
        if (!d) return d;
        return { ...d, configurable: true, ...('value' in d ? { value: wrap(d.value, step(at, keyStep(prop))) } : {}) };
      },
      getPrototypeOf: () => Reflect.getPrototypeOf(object),
    });

  const wrap = (value: unknown, at: string): unknown => {
    if (!isObject(value)) {
      record(at);
      return value;
    }
    const cached = proxies.get(value);
    if (cached) return cached;
    const proxy = Array.isArray(value) ? wrapList(value as unknown[], at) : wrapObject(value as Record<string, unknown>, at);
    proxies.set(value, proxy);
    return proxy;
  };

  return {
    content: wrap(content, '[') as T,
    reads: () => [...seen].map((key) => JSON.parse(key) as Read),
    keys: () => [...seen],
  };
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
