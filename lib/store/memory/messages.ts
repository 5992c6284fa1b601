/**
 * In-memory workflow message queues: for tests, benchmarks and `SERVICE_STORE=memory`. Every
 * check-and-set runs with no await between the check and the write, so the queue bound is as exact
 * as the DynamoDB adapter's conditional count.
 */
import type { AddOutcome, MessageStore, QueuedMessage } from '../../messages/ports.ts';

interface Entry {
  message: QueuedMessage;
  visible: boolean;
}

export class MemoryMessageStore implements MessageStore {
  private readonly queues = new Map<string, Map<string, Entry>>();

  async add(message: QueuedMessage, limit: number, now: number): Promise<AddOutcome> {
    const queue = this.queues.get(message.workflowId) ?? new Map<string, Entry>();
    for (const [seq, entry] of queue) if (entry.message.expiresAt <= now) queue.delete(seq);
    if (queue.size >= limit) return 'full';
    queue.set(message.seq, { message: structuredClone(message), visible: false });
    this.queues.set(message.workflowId, queue);
    return 'added';
  }

  async confirm(workflowId: string, seq: string): Promise<void> {
    const entry = this.queues.get(workflowId)?.get(seq);
    if (entry) entry.visible = true;
  }

  async withdraw(workflowId: string, seq: string): Promise<void> {
    this.queues.get(workflowId)?.delete(seq);
  }

  async peek(workflowId: string, now: number, limit: number): Promise<QueuedMessage[]> {
    const queue = this.queues.get(workflowId);
    if (!queue) return [];
    return [...queue.values()]
      .filter((e) => e.visible && e.message.expiresAt > now)
      .map((e) => e.message)
      .sort((a, b) => (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0))
      .slice(0, limit)
      .map((m) => structuredClone(m));
  }

  async deleteQueue(workflowId: string): Promise<void> {
    this.queues.delete(workflowId);
  }
}
