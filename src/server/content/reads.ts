import { createHash } from 'node:crypto';

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
/** Per list, whether every item has an id: each page's recording wraps the same lists (thousands of articles). */
const itemLists = new WeakMap<unknown[], boolean>();
const isListOfItems = (list: unknown[]): boolean => {
  let items = itemLists.get(list);
  if (items === undefined) itemLists.set(list, (items = list.length > 0 && list.every(hasId)));
  return items;
};

// Registered (Symbol.for): the pages of the server bundle and a publisher loaded from the sources
// (the tests) hold two copies of this module, and a lookup must still be recorded as one.
const LOOKUP = Symbol.for('procurement-site/findItem');
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
 * content (same values, lists are lists); `keys()` gives the distinct reads so far as JSON text,
 * `reads()` as paths.
 */
export function recordReads<T extends object>(content: T): { content: T; reads(): Read[]; keys(): string[] } {
  const seen = new Set<string>();
  const record = (at: string) => void seen.add(`${at}]`);
  const proxies = new WeakMap<object, object>();

  const wrap = (value: unknown, at: string): unknown => {
    if (!isObject(value)) {
      record(at);
      return value;
    }
    const target = value as Record<string | symbol, unknown>;
    const cached = proxies.get(target);
    if (cached) return cached;
    let proxy: object;
    if (Array.isArray(target)) {
      const items = isListOfItems(target);
      const ids = step(at, IDS);
      proxy = new Proxy(target, {
        get(t, prop, receiver) {
          if (prop === LOOKUP) {
            return ((field, value) => {
              record(step(at, JSON.stringify({ match: [field, value] })));
              // Found through the list's index of that field, as a read is resolved, not by a walk.
              const item = itemWhere(t, field, value);
              return hasId(item) ? wrap(item, step(at, idStep(item.id))) : item;
            }) satisfies Lookup;
          }
          if (!items) {
            // A list of plain values (NAICS codes, variant widths) is one value.
            record(at);
            return Reflect.get(t, prop, receiver);
          }
          if (typeof prop === 'string' && /^\d+$/.test(prop)) {
            const item = t[Number(prop)] as { id: string | number } | undefined;
            // Reaching an item by its place depends on which item is there.
            record(ids);
            return item === undefined ? undefined : wrap(item, step(at, idStep(item.id)));
          }
          if (prop === 'length' || prop === Symbol.iterator) record(ids);
          // Array methods (map, filter, find…) are called on the proxy, so they read through it.
          return Reflect.get(t, prop, receiver);
        },
        has(t, prop) {
          record(ids);
          return Reflect.has(t, prop);
        },
        ownKeys(t) {
          record(ids);
          return Reflect.ownKeys(t);
        },
      });
    } else {
      proxy = new Proxy(target, {
        get(t, prop, receiver) {
          if (typeof prop === 'symbol') return Reflect.get(t, prop, receiver);
          if (!Object.prototype.hasOwnProperty.call(t, prop)) {
            // An absent key (or an inherited method): it may be there in the next snapshot.
            if (!(prop in Object.prototype)) record(step(at, keyStep(prop)));
            return Reflect.get(t, prop, receiver);
          }
          return wrap(t[prop], step(at, keyStep(prop)));
        },
        has(t, prop) {
          if (typeof prop === 'string') record(step(at, keyStep(prop)));
          return Reflect.has(t, prop);
        },
        ownKeys(t) {
          record(at);
          return Reflect.ownKeys(t);
        },
        getOwnPropertyDescriptor(t, prop) {
          const d = Reflect.getOwnPropertyDescriptor(t, prop);
          if (d && typeof prop === 'string' && 'value' in d) return { ...d, value: wrap(d.value, step(at, keyStep(prop))) };
          return d;
        },
      });
    }
    proxies.set(target, proxy);
    return proxy;
  };

  return {
    content: wrap(content, '[') as T,
    reads: () => [...seen].map((key) => JSON.parse(key) as Read),
    keys: () => [...seen],
  };
}

/** Per list, its items by id and by looked-up field: resolving a read is then one step per key. */
const byId = new WeakMap<unknown[], Map<unknown, unknown>>();
const byField = new WeakMap<unknown[], Map<string, Map<unknown, unknown>>>();

function itemWithId(list: unknown[], id: unknown): unknown {
  let index = byId.get(list);
  if (!index) byId.set(list, (index = new Map(list.filter(hasId).map((item) => [item.id, item]))));
  return index.get(id);
}

function itemWhere(list: unknown[], field: string, value: unknown): unknown {
  let fields = byField.get(list);
  if (!fields) byField.set(list, (fields = new Map()));
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
