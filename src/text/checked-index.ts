// Reading an index or key the caller has already checked. `noUncheckedIndexedAccess` types every
// `items[i]` as possibly undefined; where the code's own bounds check makes that impossible, these say
// so once instead of a `!` at each use, and a broken check fails loudly here instead of as a TypeError later.

/** `items[i]` for an index known to be in range; out of range is a bug, thrown as one. */
export function itemAt<T>(items: ArrayLike<T>, i: number): T {
  const item = items[i];
  if (item === undefined && !(i >= 0 && i < items.length)) {
    throw new RangeError(`index ${i} outside 0..${items.length - 1}`);
  }
  return item as T;
}

/** `map.get(key)` for a key known to be present; a missing key is a bug, thrown as one. */
export function entryOf<K, V>(map: ReadonlyMap<K, V>, key: K): V {
  const value = map.get(key);
  if (value === undefined && !map.has(key)) throw new RangeError(`no entry for ${String(key)}`);
  return value as V;
}
