/**
 * A secondary index kept in memory by the stores that hold one (run ids by workflow name, by
 * correlation id, task ids by type): sets of ids by key, a key gone with its last id.
 */
export function addTo(index: Map<string, Set<string>>, key: string, id: string): void {
  let ids = index.get(key);
  if (!ids) {
    ids = new Set();
    index.set(key, ids);
  }
  ids.add(id);
}

export function removeFrom(index: Map<string, Set<string>>, key: string, id: string): void {
  const ids = index.get(key);
  ids?.delete(id);
  if (ids?.size === 0) index.delete(key);
}
