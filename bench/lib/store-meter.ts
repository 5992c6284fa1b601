/**
 * Counts what the engine asks of its stores, by operation and by phase (workflow start, decide,
 * poll, task update), in the units a DynamoDB deployment would pay for. The in-memory stores are
 * wrapped (bench/lib/metered-stores.ts); the counts follow the DynamoDB adapters' request shapes
 * and the key design of lib/store/dynamodb/tables.ts:
 *
 * - read  = one item read by key (GetItem, or one item of a BatchGetItem) or one Query/Scan request;
 * - write = one item put or deleted (PutItem, DeleteItem, one item of a BatchWriteItem), including
 *   conditional writes that fail (DynamoDB bills those too; they are also counted as `conflicts`);
 * - index writes are MODELLED, not measured (the memory store has no indexes). They follow
 *   DynamoDB's rules for secondary indexes: an item entering or leaving an index is one index
 *   write, a change of an index key attribute is two (delete + put), a change of a projected
 *   non-key attribute is one, and a write that touches no indexed attribute costs none:
 *     executions.byTask  (GSI, KEYS_ONLY on taskId)      task row created or deleted;
 *     executions.byName  (GSI, INCLUDE status, workflowVersion, correlationId) run created or
 *                        removed, or a commit that changes one of those three;
 *     executions.wakeups (GSI, sparse on wakeAt)          wakeAt 0 -> t or t -> 0: 1; t -> t': 2;
 *     queues.ready       (LSI, ALL on readyKey)           entry created or deleted: 1; an entry
 *                        pushed again with another priority/visibility (a new readyKey): 2;
 *     definitions.gsi1   (GSI, ALL)                       definition put or deleted.
 * - with `sizes`, request units are MODELLED too from the adapters' item shapes: write units =
 *   ceil(item KB) per item written (index writes of KEYS_ONLY/INCLUDE items: 1 each, the `ready`
 *   LSI copies the whole small entry: 1), read units = ceil(item size / 4 KB) per item read
 *   consistently, a Query ceil(total / 4 KB).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { ConflictError, VersionConflictError } from '../../lib/model/errors.ts';
import type { WorkflowRecord } from '../../lib/model/execution.ts';
import type { Stores } from '../../lib/store/ports.ts';
import {
  meteredExecutions,
  meteredPollData,
  meteredQueue,
  meteredTaskDefs,
  meteredWorkflowDefs,
} from './metered-stores.ts';
import {
  addTally,
  emptyTally,
  type IndexName,
  type Messages,
  type MeterSnapshot,
  type Phase,
  type Tally,
} from './tally.ts';

/** The attributes of a run item that indexes read, as last written. */
interface RunIndexState {
  status: string;
  version: number;
  correlationId: string | undefined;
  wakeAt: number;
}

/** SQS DelaySeconds is at most 15 minutes (lib/queue/sqs.ts). */
const SQS_MAX_DELAY_MS = 900_000;

export class StoreMeter {
  private readonly phase = new AsyncLocalStorage<Phase>();
  private readonly ops = new Map<string, Tally>();
  readonly messages: Messages = { decisionRequests: 0, timerMessages: 0, taskQueuePushes: 0, decides: 0 };
  /** Index attributes of the stored items, to model index writes (the memory store has no indexes). */
  private readonly runs = new Map<string, RunIndexState>();
  private readonly taskRows = new Map<string, Set<string>>();
  private readonly queueKeys = new Map<string, string>();
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

  /** The engine's ports metered; any other capability's stores pass through as they are. */
  wrap<S extends Stores>(stores: S): S {
    return {
      ...stores,
      workflowDefs: meteredWorkflowDefs(this, stores.workflowDefs),
      taskDefs: meteredTaskDefs(this, stores.taskDefs),
      executions: meteredExecutions(this, stores.executions),
      queue: meteredQueue(this, stores.queue),
      pollData: meteredPollData(this, stores.pollData),
      close: () => stores.close(),
    };
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

  index(tally: Tally, index: IndexName, writes: number): void {
    if (writes <= 0) return;
    tally.byIndex[index] += writes;
    tally.indexWrites += writes;
    // Index items here are small (keys, a few projected attributes, or a small queue entry).
    tally.writeUnits += writes;
  }

  /** `items` items written; `bytes` gives the sizes of those whose size is known. */
  written(tally: Tally, items: number, bytes: () => number[]): void {
    tally.writes += items;
    if (!this.sizes) return;
    const sizes = bytes();
    for (const size of sizes) {
      tally.bytesWritten += size;
      tally.writeUnits += Math.max(1, Math.ceil(size / 1024));
    }
    // Items whose size is unknown (deletes): one unit each.
    tally.writeUnits += Math.max(0, items - sizes.length);
  }

  /** `items` items read by key (consistently); `bytes` gives the sizes of those found. */
  readItems(tally: Tally, items: number, bytes: () => number[]): void {
    tally.reads += items;
    if (!this.sizes) return;
    const sizes = bytes();
    for (const size of sizes) tally.readUnits += Math.max(1, Math.ceil(size / 4096));
    tally.readUnits += Math.max(0, items - sizes.length);
  }

  /** One Query request returning `bytes` in all. */
  query(tally: Tally, bytes: () => number): void {
    tally.reads += 1;
    if (this.sizes) tally.readUnits += Math.max(1, Math.ceil(bytes() / 4096));
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

  // ---- index models ----

  runCreated(tally: Tally, record: WorkflowRecord): void {
    const state = runState(record);
    this.runs.set(record.workflowId, state);
    this.index(tally, 'executions.byName', 1);
    if (state.wakeAt > 0) this.index(tally, 'executions.wakeups', 1);
  }

  runCommitted(tally: Tally, record: WorkflowRecord): void {
    const before = this.runs.get(record.workflowId);
    const after = runState(record);
    this.runs.set(record.workflowId, after);
    if (!before) return;
    if (
      before.status !== after.status ||
      before.version !== after.version ||
      before.correlationId !== after.correlationId
    ) {
      this.index(tally, 'executions.byName', 1);
    }
    if (before.wakeAt !== after.wakeAt) {
      this.index(tally, 'executions.wakeups', before.wakeAt > 0 && after.wakeAt > 0 ? 2 : 1);
    }
  }

  /** A run and its task rows removed. */
  runRemoved(tally: Tally, workflowId: string): void {
    const rows = this.taskRows.get(workflowId)?.size ?? 0;
    this.index(tally, 'executions.byTask', rows);
    this.index(tally, 'executions.byName', 1);
    if ((this.runs.get(workflowId)?.wakeAt ?? 0) > 0) this.index(tally, 'executions.wakeups', 1);
    this.runs.delete(workflowId);
    this.taskRows.delete(workflowId);
  }

  taskRowCount(workflowId: string): number {
    return this.taskRows.get(workflowId)?.size ?? 0;
  }

  /** A task row written with a create: false when it existed already (the create adopted it). */
  taskRowCreated(tally: Tally, workflowId: string, taskId: string): boolean {
    let rows = this.taskRows.get(workflowId);
    if (!rows) {
      rows = new Set();
      this.taskRows.set(workflowId, rows);
    }
    if (rows.has(taskId)) return false;
    rows.add(taskId);
    this.index(tally, 'executions.byTask', 1);
    return true;
  }

  taskRowDeleted(tally: Tally, workflowId: string, taskId: string): void {
    if (this.taskRows.get(workflowId)?.delete(taskId)) this.index(tally, 'executions.byTask', 1);
  }

  /** A queue entry put with the given sort key of the `ready` LSI. */
  queueEntryPut(tally: Tally, key: string, readyKey: string): void {
    const before = this.queueKeys.get(key);
    this.queueKeys.set(key, readyKey);
    this.index(tally, 'queues.ready', before === undefined ? 1 : before === readyKey ? 0 : 2);
  }

  queueEntryDeleted(tally: Tally, key: string): void {
    if (this.queueKeys.delete(key)) this.index(tally, 'queues.ready', 1);
  }

  // ---- messages ----

  countRequest(delayMs = 0): void {
    if (delayMs > 0) this.messages.timerMessages++;
    else this.messages.decisionRequests++;
  }

  countWakeAt(at: number, now: number): void {
    if (at > 0 && at - now <= SQS_MAX_DELAY_MS) this.messages.timerMessages++;
  }

  countQueuePushes(entries: number): void {
    this.messages.taskQueuePushes += entries;
  }

  countDecide(): void {
    this.messages.decides++;
  }
}

const runState = (record: WorkflowRecord): RunIndexState => ({
  status: record.status,
  version: record.workflowVersion,
  correlationId: record.correlationId,
  wakeAt: Math.max(0, record.wakeAt),
});
