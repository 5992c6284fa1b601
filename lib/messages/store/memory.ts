/**
 * In-memory workflow message queues: for tests, benchmarks and `SERVICE_STORE=memory`. Every
 * check-and-set runs with no await between the check and the write, so the queue bound and the
 * claims are as exact as the DynamoDB adapter's conditional writes.
 */

import { keyOf, memoryTables, type TableSource } from '../../store/keyed.ts';
import type { AddOutcome, MessageStore, QueuedMessage } from '../ports.ts';

interface Entry {
  message: QueuedMessage;
  visible: boolean;
  claimedBy?: string;
}

const bySeq = (a: Entry, b: Entry) =>
  a.message.seq < b.message.seq ? -1 : a.message.seq > b.message.seq ? 1 : 0;

export class MemoryMessageStore implements MessageStore {
  /** Every entry by run and seq (what is stored); `queues` is built from it. */
  private readonly stored;
  private readonly queues = new Map<string, Map<string, Entry>>();

  constructor(tables: TableSource = memoryTables) {
    this.stored = tables.table<Entry>('messages');
    for (const entry of this.stored.values()) {
      const queue = this.queues.get(entry.message.workflowId) ?? new Map<string, Entry>();
      queue.set(entry.message.seq, entry);
      this.queues.set(entry.message.workflowId, queue);
    }
  }

  /** Stores an entry as it is now (after a change in place). */
  private save(entry: Entry): void {
    this.stored.set(keyOf(entry.message.workflowId, entry.message.seq), entry);
  }

  private drop(queue: Map<string, Entry>, workflowId: string, seq: string): void {
    if (queue.delete(seq)) this.stored.delete(keyOf(workflowId, seq));
  }

  async add(message: QueuedMessage, limit: number, now: number): Promise<AddOutcome> {
    const queue = this.queues.get(message.workflowId) ?? new Map<string, Entry>();
    let live = 0;
    for (const [seq, entry] of queue) {
      if (entry.claimedBy !== undefined) continue;
      if (entry.message.expiresAt <= now) this.drop(queue, message.workflowId, seq);
      else live += 1;
    }
    if (live >= limit) return 'full';
    const entry: Entry = { message: structuredClone(message), visible: false };
    queue.set(message.seq, entry);
    this.queues.set(message.workflowId, queue);
    this.save(entry);
    return 'added';
  }

  async confirm(workflowId: string, seq: string): Promise<void> {
    const entry = this.queues.get(workflowId)?.get(seq);
    if (entry) {
      entry.visible = true;
      this.save(entry);
    }
  }

  async withdraw(workflowId: string, seq: string): Promise<void> {
    const queue = this.queues.get(workflowId);
    if (queue) this.drop(queue, workflowId, seq);
  }

  async peek(workflowId: string, now: number, limit: number): Promise<QueuedMessage[]> {
    return this.free(workflowId, now)
      .slice(0, limit)
      .map((e) => structuredClone(e.message));
  }

  async claim(workflowId: string, taskId: string, now: number, limit: number): Promise<QueuedMessage[]> {
    const entries = [...(this.queues.get(workflowId)?.values() ?? [])];
    const mine = entries.filter((e) => e.claimedBy === taskId).sort(bySeq);
    const taken = this.free(workflowId, now).slice(0, Math.max(0, limit - mine.length));
    for (const entry of taken) {
      entry.claimedBy = taskId;
      this.save(entry);
    }
    return [...mine, ...taken].map((e) => structuredClone(e.message));
  }

  async claims(workflowId: string): Promise<Map<string, QueuedMessage[]>> {
    const out = new Map<string, QueuedMessage[]>();
    for (const entry of [...(this.queues.get(workflowId)?.values() ?? [])].sort(bySeq)) {
      if (entry.claimedBy === undefined) continue;
      out.set(entry.claimedBy, [...(out.get(entry.claimedBy) ?? []), structuredClone(entry.message)]);
    }
    return out;
  }

  async settle(workflowId: string, taskId: string, delivered: readonly string[]): Promise<void> {
    const queue = this.queues.get(workflowId);
    if (!queue) return;
    const ids = new Set(delivered);
    for (const [seq, entry] of queue) {
      if (entry.claimedBy !== taskId) continue;
      if (ids.has(entry.message.id)) this.drop(queue, workflowId, seq);
      else {
        entry.claimedBy = undefined;
        this.save(entry);
      }
    }
  }

  async deleteQueue(workflowId: string): Promise<void> {
    const queue = this.queues.get(workflowId);
    for (const seq of [...(queue?.keys() ?? [])]) this.stored.delete(keyOf(workflowId, seq));
    this.queues.delete(workflowId);
  }

  private free(workflowId: string, now: number): Entry[] {
    const queue = this.queues.get(workflowId);
    if (!queue) return [];
    return [...queue.values()]
      .filter((e) => e.visible && e.claimedBy === undefined && e.message.expiresAt > now)
      .sort(bySeq);
  }
}
