/**
 * In-memory worker task queues and poll data. Each queue keeps its entries ordered by priority
 * (higher first) then visibility time then insertion; `peek` scans from the front. One entry per
 * task: a push replaces the task's previous entry.
 */

import { keyOf, memoryTables, type TableSource } from '../keyed.ts';
import {
  type PollData,
  type PollDataStore,
  type QueueEntry,
  sameQueueKey,
  servedBefore,
  type TaskQueue,
} from '../ports.ts';

interface Slot extends QueueEntry {
  order: number;
}

export class MemoryTaskQueue implements TaskQueue {
  /** Every entry by queue and task (what is stored); `queues` holds them in serving order. */
  private readonly stored;
  private readonly queues = new Map<string, Slot[]>();
  private counter = 0;

  constructor(tables: TableSource = memoryTables) {
    this.stored = tables.table<Slot>('queue');
    for (const slot of this.stored.values()) {
      const list = this.queues.get(slot.queueName) ?? [];
      list.push(slot);
      this.queues.set(slot.queueName, list);
      this.counter = Math.max(this.counter, slot.order + 1);
    }
    for (const list of this.queues.values()) list.sort((a, b) => (before(a, b) ? -1 : 1));
  }

  async push(entries: readonly QueueEntry[]): Promise<void> {
    for (const entry of entries) {
      const list = this.queues.get(entry.queueName) ?? [];
      const key = keyOf(entry.queueName, entry.taskId);
      const existing = this.stored.get(key);
      if (existing) list.splice(slotIndex(list, existing), 1);
      const { legacy: _legacy, ...fields } = entry;
      const slot: Slot = { ...fields, order: this.counter++ };
      // Insert keeping the order; most pushes land at the end of their priority band.
      let at = list.length;
      while (at > 0 && before(slot, list[at - 1] as Slot)) at--;
      list.splice(at, 0, slot);
      this.stored.set(key, slot);
      this.queues.set(entry.queueName, list);
    }
  }

  async peek(queueName: string, count: number, now: number): Promise<QueueEntry[]> {
    const out: QueueEntry[] = [];
    for (const slot of this.queues.get(queueName) ?? []) {
      if (out.length >= count) break;
      if (slot.visibleAt <= now) {
        const { order: _order, ...entry } = slot;
        out.push(entry);
      }
    }
    return out;
  }

  /**
   * Removes the task's entry only if it is still this one (same priority and visibility), as the
   * DynamoDB adapter, which deletes by that key: removing a superseded entry after the task was
   * pushed again must not take the new entry with it. There is no old layout here: `legacy` means
   * nothing.
   */
  async remove(entry: QueueEntry): Promise<void> {
    const list = this.queues.get(entry.queueName);
    const key = keyOf(entry.queueName, entry.taskId);
    const stored = this.stored.get(key);
    if (!list || !stored || !sameQueueKey(stored, entry)) return;
    list.splice(slotIndex(list, stored), 1);
    this.stored.delete(key);
    if (list.length === 0) this.queues.delete(entry.queueName);
  }

  async removeAll(entries: readonly QueueEntry[]): Promise<void> {
    for (const entry of entries) await this.remove(entry);
  }

  async size(queueName: string): Promise<number> {
    return this.queues.get(queueName)?.length ?? 0;
  }

  async sizes(): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const name of [...this.queues.keys()].sort()) out[name] = this.queues.get(name)?.length ?? 0;
    return out;
  }
}

/** Where a stored slot sits in its queue's list (kept in `before` order): a binary search. */
function slotIndex(list: readonly Slot[], slot: Slot): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (before(list[mid] as Slot, slot)) low = mid + 1;
    else high = mid;
  }
  if (list[low] !== slot) throw new Error(`Queue ${slot.queueName} lost the order of task ${slot.taskId}`);
  return low;
}

/** Serving order, then the order of the pushes. */
function before(a: Slot, b: Slot): boolean {
  if (servedBefore(a, b)) return true;
  return !servedBefore(b, a) && a.order < b.order;
}

export class MemoryPollDataStore implements PollDataStore {
  private readonly data;

  constructor(tables: TableSource = memoryTables) {
    this.data = tables.table<PollData>('poll-data');
  }

  async record(data: PollData): Promise<void> {
    this.data.set(`${data.queueName}\u0000${data.workerId ?? ''}`, { ...data });
  }

  async list(queueName?: string): Promise<PollData[]> {
    return [...this.data.values()]
      .filter((d) => queueName === undefined || d.queueName === queueName)
      .sort((a, b) => (a.queueName < b.queueName ? -1 : a.queueName > b.queueName ? 1 : 0))
      .map((d) => ({ ...d }));
  }
}
