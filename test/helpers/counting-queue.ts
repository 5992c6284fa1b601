/** A task queue that counts the reads (peeks) of each queue name, over a memory queue by default. */
import { createMemoryStores } from '../../lib/runtime/stores.ts';
import type { TaskQueue } from '../../lib/store/ports.ts';

export interface CountingQueue {
  queue: TaskQueue;
  /** Peeks by queue name. */
  peeks: Map<string, number>;
  /** Peeks of every queue. */
  total(): number;
}

export function countingQueue(inner: TaskQueue = createMemoryStores().queue): CountingQueue {
  const peeks = new Map<string, number>();
  const queue: TaskQueue = {
    push: (entries) => inner.push(entries),
    peek: (name, count, now) => {
      peeks.set(name, (peeks.get(name) ?? 0) + 1);
      return inner.peek(name, count, now);
    },
    remove: (entry) => inner.remove(entry),
    removeAll: (entries) => inner.removeAll(entries),
    size: (name) => inner.size(name),
    sizes: () => inner.sizes(),
  };
  return { queue, peeks, total: () => [...peeks.values()].reduce((sum, n) => sum + n, 0) };
}
