/**
 * Queue notifications: every push to a worker queue is published under the queue's name once it is
 * stored, so a long poll waiting on that queue (TaskService.poll) is answered at once rather than on
 * a re-check. An entry pushed with a later visibility (callbackAfterSeconds, a retry's delay) is
 * published again when it becomes visible.
 */
import type { Clock } from '../model/clock.ts';
import type { Notifier } from '../model/notifier.ts';
import type { QueueEntry, TaskQueue } from '../store/ports.ts';

/** setTimeout's delay is a 32-bit int; entries visible later than this are found by a later poll. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export function publishingQueue(inner: TaskQueue, notifier: Notifier, clock: Clock): TaskQueue {
  return {
    push: async (entries: readonly QueueEntry[]) => {
      await inner.push(entries);
      const now = clock.now();
      const published = new Set<string>();
      for (const entry of entries) {
        const delay = entry.visibleAt - now;
        if (delay <= 0) {
          if (!published.has(entry.queueName)) notifier.publish(entry.queueName);
          published.add(entry.queueName);
        } else if (delay <= MAX_TIMER_MS) {
          // unref: a pending visibility never keeps the process alive.
          setTimeout(() => notifier.publish(entry.queueName), delay).unref();
        }
      }
    },
    peek: (queueName, count, now) => inner.peek(queueName, count, now),
    remove: (entry) => inner.remove(entry),
    removeAll: (entries) => inner.removeAll(entries),
    size: (queueName) => inner.size(queueName),
    sizes: () => inner.sizes(),
  };
}
