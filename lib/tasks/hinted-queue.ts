/**
 * Peek hints: a poll asks its queue for a few entries more than it claims (TaskService.claim), and
 * the entries it leaves are kept here, for `hintMs`, as the answer to the next peek of that queue
 * in this process, instead of reading the queue again. On DynamoDB a peek is one Query per shard
 * (2 read units, lib/store/dynamodb/queue.ts); under load most polls are then answered from hints.
 *
 * Hints follow what this process does to the queue: an entry removed (claimed, or dropped as stale)
 * leaves them, and an entry pushed joins them in serving order when it sorts before their last one,
 * or when the peek that made them found fewer entries than it asked for (they held the whole
 * visible queue). So in a single process (the local server) hints answer what a peek would, but
 * for a task of a higher priority turning visible later, served up to `hintMs` late. Pushes of other
 * processes (Lambda) are seen when the hints run out or expire: like an eventually consistent
 * peek, the answer may be moments old. A hint is only a hint: the task row decides every claim,
 * and a poll whose entries all turn out stale looks again at once (TaskService.claim).
 */
import { type QueueEntry, sameQueueKey, servedBefore, type TaskQueue } from '../store/ports.ts';

/** How long the entries a peek found answer the next peeks of their queue (service.tasks.poll.peek-hints). */
export const HINT_MS = 100;

interface Hints {
  /** Visible-or-not entries in serving order. */
  entries: QueueEntry[];
  /** When the peek that made them ran: the caller's `now`, and performance.now() (a test's clock may stand still). */
  at: number;
  realAt: number;
  /** The peek found fewer entries than it asked for: they were every visible entry then. */
  whole: boolean;
}

const sameEntry = (a: QueueEntry, b: QueueEntry): boolean => a.taskId === b.taskId && sameQueueKey(a, b);

export function hintedQueue(inner: TaskQueue, hintMs = HINT_MS): TaskQueue {
  if (hintMs <= 0) return inner;
  const hints = new Map<string, Hints>();
  /**
   * The hints of a queue while they may answer a peek; expired ones are forgotten here, so a queue
   * pushed to and never polled does not gather every entry pushed.
   */
  const live = (queueName: string): Hints | undefined => {
    const held = hints.get(queueName);
    if (held && performance.now() - held.realAt >= hintMs) {
      hints.delete(queueName);
      return undefined;
    }
    return held;
  };
  const drop = (entry: QueueEntry) => {
    const held = live(entry.queueName);
    if (held) held.entries = held.entries.filter((e) => !sameEntry(e, entry));
  };
  return {
    push: async (entries) => {
      await inner.push(entries);
      for (const entry of entries) {
        const held = live(entry.queueName);
        if (!held) continue;
        const list = held.entries.filter((e) => !sameEntry(e, entry));
        const at = list.findIndex((e) => servedBefore(entry, e));
        if (at >= 0) list.splice(at, 0, entry);
        else if (held.whole) list.push(entry);
        held.entries = list;
      }
    },
    peek: async (queueName, count, now) => {
      const held = live(queueName);
      if (held && now - held.at < hintMs) {
        const visible = held.entries.filter((e) => e.visibleAt <= now);
        if (visible.length > 0) return visible.slice(0, count);
      }
      const found = await inner.peek(queueName, count, now);
      hints.set(queueName, {
        entries: [...found],
        at: now,
        realAt: performance.now(),
        whole: found.length < count,
      });
      return found;
    },
    remove: async (entry) => {
      drop(entry);
      await inner.remove(entry);
    },
    removeAll: async (entries) => {
      for (const entry of entries) drop(entry);
      await inner.removeAll(entries);
    },
    size: (queueName) => inner.size(queueName),
    sizes: () => inner.sizes(),
  };
}
