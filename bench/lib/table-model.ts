/**
 * DynamoDB's secondary-index write rules applied to the key design of lib/store/dynamodb/tables.ts,
 * so that the store meter (store-meter.ts) derives the index writes of every write from the table
 * specs instead of a hand-kept list: an index added to a TableSpec is counted without a change here.
 *
 * For one item written (`before` -> `after`, either absent) and one index of its table:
 * - the item is in the index when it carries every key attribute of the index (GSI: its partition
 *   and sort key; LSI: its sort key, the partition key being the table's): sparse indexes follow;
 * - entering or leaving the index is one index write;
 * - a change of an index key attribute (or of the table key, another item) is two: delete + put;
 * - else a change of a projected non-key attribute is one (KEYS_ONLY projects none, INCLUDE its
 *   list, ALL every attribute);
 * - else none.
 * Each index write costs ceil(index entry size / 1 KB) write units (at least 1), the entry being
 * the table keys, the index keys and the projected attributes (the 100-byte per-entry overhead
 * DynamoDB adds is for storage, not billed on writes). A delete-and-put pays for both entries.
 */
import type { TableSpec } from '../../lib/store/dynamodb/tables.ts';
import { projectionOf } from '../../lib/store/dynamodb/tables.ts';

export type Item = Record<string, unknown>;

/** An index of a table, as the meter reports it: "<table id>.<index name>". */
export interface IndexModel {
  name: string;
  keys: readonly string[];
  /** Non-key attributes copied into the index: a list, or every attribute. */
  projected: readonly string[] | 'ALL';
}

export interface IndexWrite {
  index: string;
  writes: number;
  units: number;
}

const known = new WeakMap<TableSpec, IndexModel[]>();

/** Every index (GSIs then LSIs) of a table, in the meter's terms (worked out once per spec). */
export function indexesOf(spec: TableSpec): IndexModel[] {
  let indexes = known.get(spec);
  if (!indexes) {
    indexes = modelsOf(spec);
    known.set(spec, indexes);
  }
  return indexes;
}

function modelsOf(spec: TableSpec): IndexModel[] {
  const projected = (index: Parameters<typeof projectionOf>[0]): readonly string[] | 'ALL' => {
    const projection = projectionOf(index);
    if (projection.type === 'ALL') return 'ALL';
    return projection.type === 'INCLUDE' ? (projection.attributes ?? []) : [];
  };
  return [
    ...spec.indexes.map((index) => ({
      name: `${spec.id}.${index.name}`,
      keys: [index.partitionKey, index.sortKey],
      projected: projected(index),
    })),
    ...(spec.localIndexes ?? []).map((index) => ({
      name: `${spec.id}.${index.name}`,
      keys: [spec.partitionKey, index.sortKey],
      projected: projected(index),
    })),
  ];
}

/** The names of every index of these tables, "<table>.<index>". */
export const indexNamesOf = (specs: readonly TableSpec[]): string[] =>
  specs.flatMap((spec) => indexesOf(spec).map((index) => index.name));

const present = (item: Item | undefined, name: string) => item !== undefined && item[name] !== undefined;

/** Two attribute values equal for DynamoDB (binary by content). */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.from(a).equals(Buffer.from(b));
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null)
    return JSON.stringify(a) === JSON.stringify(b);
  return false;
}

/** The index writes one write of a table's item makes (`undefined`: the item absent). */
export function indexWritesOf(
  spec: TableSpec,
  before: Item | undefined,
  after: Item | undefined,
): IndexWrite[] {
  const tableKeys = [spec.partitionKey, spec.sortKey];
  const moved =
    before !== undefined && after !== undefined && tableKeys.some((k) => !same(before[k], after[k]));
  const writes: IndexWrite[] = [];
  for (const index of indexesOf(spec)) {
    const wasIn = index.keys.every((k) => present(before, k));
    const isIn = index.keys.every((k) => present(after, k));
    const entry = (item: Item) => entryUnits(item, tableKeys, index);
    let write: Omit<IndexWrite, 'index'> | undefined;
    if (wasIn && isIn) {
      const b = before as Item;
      const a = after as Item;
      if (moved || index.keys.some((k) => !same(b[k], a[k])))
        write = { writes: 2, units: entry(b) + entry(a) };
      else if (projectedNames(index, b, a).some((name) => !same(b[name], a[name])))
        write = { writes: 1, units: entry(a) };
    } else if (wasIn) write = { writes: 1, units: entry(before as Item) };
    else if (isIn) write = { writes: 1, units: entry(after as Item) };
    if (write) writes.push({ index: index.name, ...write });
  }
  return writes;
}

function projectedNames(index: IndexModel, before: Item, after: Item): readonly string[] {
  if (index.projected !== 'ALL') return index.projected;
  return [...new Set([...Object.keys(before), ...Object.keys(after)])];
}

function entryUnits(item: Item, tableKeys: readonly string[], index: IndexModel): number {
  const names =
    index.projected === 'ALL'
      ? Object.keys(item)
      : [...new Set([...tableKeys, ...index.keys, ...index.projected])];
  let size = 0;
  for (const name of names) size += attributeBytes(name, item[name]);
  return Math.max(1, Math.ceil(size / 1024));
}

// ---- item sizes (DynamoDB's rule: attribute name bytes + value bytes) ----

function attributeBytes(name: string, value: unknown): number {
  if (value === undefined) return 0;
  let size = Buffer.byteLength(name);
  if (typeof value === 'string') size += Buffer.byteLength(value);
  // A number takes about one byte per two significant digits, plus one.
  else if (typeof value === 'number')
    size += Math.ceil(String(Math.abs(value)).replace('.', '').length / 2) + 1;
  // A binary attribute (a deflated body) counts its bytes.
  else if (value instanceof Uint8Array) size += value.byteLength;
  else if (typeof value === 'boolean' || value === null) size += 1;
  else size += Buffer.byteLength(JSON.stringify(value));
  return size;
}

export function itemBytes(item: Item): number {
  let size = 0;
  for (const [name, value] of Object.entries(item)) size += attributeBytes(name, value);
  return size;
}

/**
 * The items of one table as a write sequence leaves them, to compare each write with what it
 * replaces. The caller names each item by a group and an id within it (the table's partition and
 * sort key, or the port's own identity of the item), so a group can be looked up and removed whole.
 */
export class TableModel {
  private readonly groups = new Map<string, Map<string, Item>>();

  constructor(readonly spec: TableSpec) {}

  get(group: string, id: string): Item | undefined {
    return this.groups.get(group)?.get(id);
  }

  /** The ids of a group's items. */
  ids(group: string): string[] {
    return [...(this.groups.get(group)?.keys() ?? [])];
  }

  /** The item replaced by `item` (or deleted: undefined), and the index writes that makes. */
  write(
    group: string,
    id: string,
    item: Item | undefined,
  ): { before: Item | undefined; writes: IndexWrite[] } {
    let items = this.groups.get(group);
    const before = items?.get(id);
    if (item === undefined) {
      items?.delete(id);
      if (items?.size === 0) this.groups.delete(group);
    } else {
      if (!items) {
        items = new Map();
        this.groups.set(group, items);
      }
      items.set(id, item);
    }
    return { before, writes: indexWritesOf(this.spec, before, item) };
  }
}
