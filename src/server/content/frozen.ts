/*
 * Snapshots of the content are deep-frozen when taken (site-content.ts): "an object two snapshots
 * share is unchanged" is then a fact the engine can rely on, not a promise. What is worked out
 * from a frozen object can be kept beside it for as long as it lives.
 */

/**
 * Freezes `value` and everything under it. An object already frozen is taken as frozen through
 * (this function freezes the inside first): the insight rows a snapshot shares with the last one
 * are not walked again.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const v of Object.values(value)) deepFreeze(v);
  return Object.freeze(value);
}

/**
 * `make`, remembered per frozen key (weakly: the answer goes with the key). A key that is not
 * frozen may change, so its answer is worked out each time. The only kind of module-level memo
 * the engine's rooms allow (tests/unit/module-state.test.ts): it holds nothing a caller could see
 * change.
 */
export function memoOfFrozen<K extends object, V>(make: (key: K) => V): (key: K) => V {
  const memo = new WeakMap<K, V>();
  return (key) => {
    if (!Object.isFrozen(key)) return make(key);
    let known = memo.get(key);
    if (known === undefined) memo.set(key, (known = make(key)));
    return known;
  };
}
