/**
 * Where the small stores keep their state: keyed tables of JSON values. In memory a table is a
 * plain Map; in the embedded store (store/embedded) it is a Map that also writes every change to
 * disk, loaded whole at start. One adapter class serves both, so the memory store and the
 * embedded store cannot drift apart: store/memory/* take a TableSource.
 *
 * A value is written as it is when `set` is called: an adapter that changes a kept value in place
 * sets it again.
 */

/** The part of Map an adapter uses; Map itself is one. */
export interface KeyedTable<V> {
  get(key: string): V | undefined;
  has(key: string): boolean;
  set(key: string, value: V): unknown;
  delete(key: string): boolean;
  clear(): void;
  keys(): IterableIterator<string>;
  values(): IterableIterator<V>;
  entries(): IterableIterator<[string, V]>;
  readonly size: number;
  [Symbol.iterator](): IterableIterator<[string, V]>;
}

export interface TableSource {
  /** The table of that name, with what it held (values as JSON would give them back). */
  table<V>(name: string): KeyedTable<V>;
}

/** Tables that live and die with the process. */
export const memoryTables: TableSource = { table: <V>() => new Map<string, V>() };

/** A composite key whose parts may hold any character (JSON keeps them apart). */
export const keyOf = (...parts: readonly (string | number)[]): string => JSON.stringify(parts);
