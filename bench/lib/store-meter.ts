/**
 * Counts what the engine asks of its stores, by operation and by phase (workflow start, decide,
 * poll, task update), in the units a DynamoDB deployment would pay for. The in-memory stores are
 * wrapped (bench/lib/metered-stores.ts); the counts follow the DynamoDB adapters' request shapes
 * and the key design of lib/store/dynamodb/tables.ts:
 *
 * - read  = one item read by key (GetItem, or one item of a BatchGetItem) or one Query/Scan request;
 * - write = one item put or deleted (PutItem, DeleteItem, one item of a BatchWriteItem), including
 *   conditional writes that fail (DynamoDB bills those too; they are also counted as `conflicts`);
 * - index writes are MODELLED, not measured (the memory store has no indexes): every item written
 *   is built by the adapter's own item builder and compared with the item it replaces, for every
 *   index of its table's spec (bench/lib/table-model.ts has DynamoDB's rules), so an index added to
 *   a TableSpec is counted without a change here;
 * - with `sizes`, request units are MODELLED too from those items: write units = ceil(item KB) per
 *   item put or deleted (a delete by the size of the item it deletes), index write units =
 *   ceil(index entry KB) per index write, read units = ceil(item size / 4 KB) per item read
 *   consistently, a Query ceil(total / 4 KB), half that for an eventually consistent read or Query
 *   (the adapter's ConsistentRead: false: queue peeks, reads with ReadOptions `fresh: false`).
 *   Items are only built with `sizes` (that costs an encode of every record written): without it,
 *   index writes and units are not counted.
 * - the model has no replication lag: an eventually consistent read finds what a consistent one
 *   would. On DynamoDB a stale answer now and then costs the fresh re-read its caller makes (and,
 *   where the caller acts on the stale revision, a failed conditional write); not counted here.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { ConflictError, VersionConflictError } from '../../lib/model/errors.ts';
import { sendsTimer } from '../../lib/queue/sqs.ts';
import { DEFINITIONS_TABLE, EXECUTIONS_TABLE, QUEUES_TABLE } from '../../lib/store/dynamodb/tables.ts';
import { type Item, indexWritesOf, itemBytes, TableModel } from './table-model.ts';
import {
  addTally,
  emptyTally,
  type IndexName,
  type Messages,
  type MeterSnapshot,
  type Phase,
  type Tally,
} from './tally.ts';

/** The tables whose items the meter keeps (tally.ts METERED_TABLES lists their indexes). */
export type TableId = 'definitions' | 'executions' | 'queues';

/** The item written when sizes are not metered: it carries no key attribute, so it is in no index. */
const UNSIZED: Item = Object.freeze({});

export class StoreMeter {
  private readonly phase = new AsyncLocalStorage<Phase>();
  private readonly ops = new Map<string, Tally>();
  readonly messages: Messages = { decisionRequests: 0, timerMessages: 0, taskQueuePushes: 0, decides: 0 };
  /** The items as the DynamoDB adapters would hold them, to model index writes. */
  private readonly tables: Record<TableId, TableModel> = {
    definitions: new TableModel(DEFINITIONS_TABLE),
    executions: new TableModel(EXECUTIONS_TABLE),
    queues: new TableModel(QUEUES_TABLE),
  };
  /** Whether item sizes (bytes, request units) are measured; that costs a JSON copy per item. */
  readonly sizes: boolean;

  constructor(options: { sizes?: boolean } = {}) {
    this.sizes = options.sizes === true;
  }

  /** Runs `fn` with every store operation it causes attributed to `phase`. */
  inPhase<T>(phase: Phase, fn: () => T): T {
    return this.phase.run(phase, fn);
  }

  snapshot(): MeterSnapshot {
    const ops = new Map<string, Tally>();
    for (const [key, tally] of this.ops) ops.set(key, addTally(emptyTally(), tally));
    return { ops, messages: { ...this.messages } };
  }

  // ---- recording (used by the metered stores) ----

  /** The tally of one call of `op` in the current phase. */
  call(op: string): Tally {
    const key = `${this.phase.getStore() ?? 'other'}\u0000${op}`;
    let tally = this.ops.get(key);
    if (!tally) {
      tally = emptyTally();
      this.ops.set(key, tally);
    }
    tally.calls++;
    return tally;
  }

  index(tally: Tally, index: IndexName, writes: number, units: number): void {
    if (writes <= 0) return;
    tally.byIndex[index] = (tally.byIndex[index] ?? 0) + writes;
    tally.byIndexUnits[index] = (tally.byIndexUnits[index] ?? 0) + units;
    tally.indexWrites += writes;
    tally.writeUnits += units;
  }

  /** `items` items put; `bytes` gives the sizes of those whose size is known. */
  written(tally: Tally, items: number, bytes: () => number[]): void {
    this.billWrites(tally, items, bytes, true);
  }

  /**
   * `items` items deleted; `bytes` gives the sizes of those that existed. DynamoDB bills a delete
   * by the size of the item it deletes (one unit when there was none); it writes no bytes.
   */
  deleted(tally: Tally, items: number, bytes: () => number[]): void {
    this.billWrites(tally, items, bytes, false);
  }

  private billWrites(tally: Tally, items: number, bytes: () => number[], put: boolean): void {
    tally.writes += items;
    if (!this.sizes) return;
    const sizes = bytes();
    for (const size of sizes) {
      if (put) tally.bytesWritten += size;
      tally.writeUnits += Math.max(1, Math.ceil(size / 1024));
    }
    // Items whose size is unknown: one unit each.
    tally.writeUnits += Math.max(0, items - sizes.length);
  }

  /**
   * `items` items read by key; `bytes` gives the sizes of those found (an item not found costs the
   * minimum). `consistent` false: an eventually consistent read, half the units.
   */
  readItems(tally: Tally, items: number, bytes: () => number[], consistent = true): void {
    tally.reads += items;
    if (!this.sizes) return;
    const sizes = bytes();
    const scale = consistent ? 1 : 0.5;
    for (const size of sizes) tally.readUnits += scale * Math.max(1, Math.ceil(size / 4096));
    tally.readUnits += scale * Math.max(0, items - sizes.length);
  }

  /** One Query request returning `bytes` in all; `consistent` false: half the units. */
  query(tally: Tally, bytes: () => number, consistent = true): void {
    tally.reads += 1;
    if (this.sizes) tally.readUnits += (consistent ? 1 : 0.5) * Math.max(1, Math.ceil(bytes() / 4096));
  }

  /** Runs a conditional write, counting it as a conflict when its condition fails. */
  async conditional<T>(tally: Tally, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (error instanceof VersionConflictError || error instanceof ConflictError) tally.conflicts++;
      throw error;
    }
  }

  // ---- the items (index models) ----

  /** The item as the adapter builds it when sizes are metered, else one that is in no index. */
  item(build: () => Item): Item {
    return this.sizes ? build() : UNSIZED;
  }

  /** The stored item `id` of `group` (metered-stores.ts names them), if any. */
  stored(table: TableId, group: string, id: string): Item | undefined {
    return this.tables[table].get(group, id);
  }

  /** The ids of a group's stored items. */
  storedIds(table: TableId, group: string): string[] {
    return this.tables[table].ids(group);
  }

  /** `item` now stored as `id` of `group` (put, or deleted: undefined): counts its index writes. */
  store(tally: Tally, table: TableId, group: string, id: string, item: Item | undefined): void {
    for (const write of this.tables[table].write(group, id, item).writes)
      this.index(tally, write.index, write.writes, write.units);
  }

  /** A new item the meter neither keeps nor sees again (a log line): counts its index writes. */
  added(tally: Tally, table: TableId, item: Item): void {
    for (const write of indexWritesOf(this.tables[table].spec, undefined, item))
      this.index(tally, write.index, write.writes, write.units);
  }

  /** The sizes of stored items (those that exist), for the units of their deletes. */
  storedBytes(table: TableId, group: string, ids: readonly string[]): number[] {
    return ids.flatMap((id) => {
      const item = this.tables[table].get(group, id);
      return item ? [itemBytes(item)] : [];
    });
  }

  // ---- messages ----

  countRequest(delayMs = 0): void {
    if (delayMs > 0) this.messages.timerMessages++;
    else this.messages.decisionRequests++;
  }

  countWakeAt(at: number, now: number, keptSince?: number): void {
    if (sendsTimer(at, now, keptSince)) this.messages.timerMessages++;
  }

  countQueuePushes(entries: number): void {
    this.messages.taskQueuePushes += entries;
  }

  countDecide(): void {
    this.messages.decides++;
  }
}
