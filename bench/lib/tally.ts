/**
 * What the store meter counts (bench/lib/store-meter.ts): tallies per operation and phase, queue
 * messages, snapshots and their differences.
 */
import { DEFINITIONS_TABLE, EXECUTIONS_TABLE, QUEUES_TABLE } from '../../lib/store/dynamodb/tables.ts';
import { indexNamesOf } from './table-model.ts';

export type Phase = 'start' | 'decide' | 'poll' | 'update' | 'other';
export const PHASES: readonly Phase[] = ['start', 'decide', 'poll', 'update', 'other'];

/** The tables the meter models (bench/lib/metered-stores.ts writes their items). */
export const METERED_TABLES = [DEFINITIONS_TABLE, EXECUTIONS_TABLE, QUEUES_TABLE] as const;

/** Every index of those tables, "<table>.<index>", from their specs (lib/store/dynamodb/tables.ts). */
export const INDEXES: readonly string[] = indexNamesOf(METERED_TABLES);
export type IndexName = string;

export interface Tally {
  calls: number;
  reads: number;
  writes: number;
  /** Conditional writes that failed (counted in `writes` as well). */
  conflicts: number;
  indexWrites: number;
  byIndex: Record<IndexName, number>;
  /** Write units of those index writes, per index (also in `writeUnits`). */
  byIndexUnits: Record<IndexName, number>;
  readUnits: number;
  writeUnits: number;
  bytesWritten: number;
}

export const emptyTally = (): Tally => ({
  calls: 0,
  reads: 0,
  writes: 0,
  conflicts: 0,
  indexWrites: 0,
  byIndex: Object.fromEntries(INDEXES.map((i) => [i, 0])) as Record<IndexName, number>,
  byIndexUnits: Object.fromEntries(INDEXES.map((i) => [i, 0])) as Record<IndexName, number>,
  readUnits: 0,
  writeUnits: 0,
  bytesWritten: 0,
});

export function addTally(into: Tally, from: Tally): Tally {
  into.calls += from.calls;
  into.reads += from.reads;
  into.writes += from.writes;
  into.conflicts += from.conflicts;
  into.indexWrites += from.indexWrites;
  for (const index of INDEXES) {
    into.byIndex[index] = (into.byIndex[index] ?? 0) + (from.byIndex[index] ?? 0);
    into.byIndexUnits[index] = (into.byIndexUnits[index] ?? 0) + (from.byIndexUnits[index] ?? 0);
  }
  into.readUnits += from.readUnits;
  into.writeUnits += from.writeUnits;
  into.bytesWritten += from.bytesWritten;
  return into;
}

export function subTally(a: Tally, b: Tally): Tally {
  const out = emptyTally();
  out.calls = a.calls - b.calls;
  out.reads = a.reads - b.reads;
  out.writes = a.writes - b.writes;
  out.conflicts = a.conflicts - b.conflicts;
  out.indexWrites = a.indexWrites - b.indexWrites;
  for (const index of INDEXES) {
    out.byIndex[index] = (a.byIndex[index] ?? 0) - (b.byIndex[index] ?? 0);
    out.byIndexUnits[index] = (a.byIndexUnits[index] ?? 0) - (b.byIndexUnits[index] ?? 0);
  }
  out.readUnits = a.readUnits - b.readUnits;
  out.writeUnits = a.writeUnits - b.writeUnits;
  out.bytesWritten = a.bytesWritten - b.bytesWritten;
  return out;
}

/** Queue messages a run of the engine on AWS would send (lib/queue/sqs.ts). */
export interface Messages {
  /** DecisionQueue.request without delay: one FIFO message each. */
  decisionRequests: number;
  /** Delayed requests and wake-ups within SQS's 15-minute delay: one timer-queue message each. */
  timerMessages: number;
  /** Worker task-queue entries pushed (store writes to the queues table, listed here too). */
  taskQueuePushes: number;
  /** Decides the executor actually ran (the local queue coalesces requests for one run). */
  decides: number;
}

export interface MeterSnapshot {
  ops: Map<string, Tally>;
  messages: Messages;
}

/** The difference of two snapshots, per `phase\0op` key. */
export function diffSnapshots(after: MeterSnapshot, before: MeterSnapshot): MeterSnapshot {
  const ops = new Map<string, Tally>();
  for (const [key, tally] of after.ops) {
    const diff = subTally(tally, before.ops.get(key) ?? emptyTally());
    if (diff.calls !== 0) ops.set(key, diff);
  }
  const m = after.messages;
  const b = before.messages;
  return {
    ops,
    messages: {
      decisionRequests: m.decisionRequests - b.decisionRequests,
      timerMessages: m.timerMessages - b.timerMessages,
      taskQueuePushes: m.taskQueuePushes - b.taskQueuePushes,
      decides: m.decides - b.decides,
    },
  };
}

export function totalOf(snapshot: MeterSnapshot, phase?: Phase): Tally {
  const total = emptyTally();
  for (const [key, tally] of snapshot.ops) {
    if (phase === undefined || key.startsWith(`${phase}\u0000`)) addTally(total, tally);
  }
  return total;
}

/** Totals per operation name, over every phase. */
export function byOperation(snapshot: MeterSnapshot): Map<string, Tally> {
  const out = new Map<string, Tally>();
  for (const [key, tally] of snapshot.ops) {
    const op = key.slice(key.indexOf('\u0000') + 1);
    let sum = out.get(op);
    if (!sum) {
      sum = emptyTally();
      out.set(op, sum);
    }
    addTally(sum, tally);
  }
  return new Map([...out.entries()].sort(([a], [b]) => (a < b ? -1 : 1)));
}
