/**
 * Queue notifications: every push to a worker queue is published under the queue's name once it is
 * stored, so a long poll waiting on that queue (TaskService.poll) is answered at once rather than on
 * a re-check; n entries wake at most n waiting polls, not every poll waiting on the queue. An entry
 * pushed with a later visibility (callbackAfterSeconds, a retry's delay) is published again when it
 * becomes visible.
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
      // Entries visible now, by queue: each wakes one waiting poll (Notifier.publish).
      const visible = new Map<string, number>();
      for (const entry of entries) {
        const delay = entry.visibleAt - now;
        if (delay <= 0) visible.set(entry.queueName, (visible.get(entry.queueName) ?? 0) + 1);
        else if (delay <= MAX_TIMER_MS) {
          // unref: a pending visibility never keeps the process alive.
          setTimeout(() => notifier.publish(entry.queueName, 1), delay).unref();
        }
      }
      for (const [queueName, count] of visible) notifier.publish(queueName, count);
    },
    peek: (queueName, count, now) => inner.peek(queueName, count, now),
    remove: (entry) => inner.remove(entry),
    removeAll: (entries) => inner.removeAll(entries),
    size: (queueName) => inner.size(queueName),
    sizes: () => inner.sizes(),
  };
}
