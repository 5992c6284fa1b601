/**
 * Peek hints (lib/tasks/hinted-queue.ts): the entries a peek found and nobody took answer the next
 * peeks of the queue for `hintMs`, following this process's pushes and removes; and a poll whose
 * hinted entries all turn out stale looks at the queue again at once (TaskService.claim).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStores } from '../../lib/runtime/stores.ts';
import type { QueueEntry, Stores } from '../../lib/store/ports.ts';
import { hintedQueue } from '../../lib/tasks/hinted-queue.ts';
import { countingQueue } from '../helpers/counting-queue.ts';
import { type EngineHarness, engineHarness } from '../helpers/engine.ts';
import { simpleTask, workflowDef } from '../helpers/fixtures.ts';

const entry = (taskId: string, priority = 0, visibleAt = 0): QueueEntry => ({
  queueName: 'q',
  taskId,
  workflowId: `wf-${taskId}`,
  priority,
  visibleAt,
});
const ids = (entries: QueueEntry[]) => entries.map((e) => e.taskId);

describe('peek hints', () => {
  it('answer the next peeks with the entries left, and drop what is removed', async () => {
    const { queue: store, total: peeks } = countingQueue();
    const queue = hintedQueue(store, 60_000);
    await queue.push([entry('a'), entry('b', 0, 1), entry('c', 0, 2)]);
    expect(ids(await queue.peek('q', 5, 10))).toEqual(['a', 'b', 'c']);
    await queue.remove(entry('a'));
    expect(ids(await queue.peek('q', 5, 10))).toEqual(['b', 'c']);
    expect(ids(await queue.peek('q', 1, 10))).toEqual(['b']);
    await queue.removeAll([entry('b', 0, 1)]);
    expect(ids(await queue.peek('q', 5, 10))).toEqual(['c']);
    expect(peeks()).toBe(1);
  });

  it('take this process’s pushes in serving order, and read the queue again once none is left', async () => {
    const { queue: store, total: peeks } = countingQueue();
    const queue = hintedQueue(store, 60_000);
    await queue.push([entry('a', 0, 1)]);
    expect(ids(await queue.peek('q', 5, 10))).toEqual(['a']);
    // The peek found every visible entry: a push of any order joins the hints.
    await queue.push([entry('urgent', 9, 5), entry('later', 0, 8), entry('future', 0, 50)]);
    expect(ids(await queue.peek('q', 5, 10))).toEqual(['urgent', 'a', 'later']);
    // An entry turns visible with time.
    expect(ids(await queue.peek('q', 5, 50))).toEqual(['urgent', 'a', 'later', 'future']);
    expect(peeks()).toBe(1);
    await queue.removeAll([
      entry('urgent', 9, 5),
      entry('a', 0, 1),
      entry('later', 0, 8),
      entry('future', 0, 50),
    ]);
    expect(await queue.peek('q', 5, 60)).toEqual([]);
    expect(peeks()).toBe(2);
  });

  it('skip a push that sorts after the last hint when the peek left entries unread', async () => {
    const { queue: store, total: peeks } = countingQueue();
    const queue = hintedQueue(store, 60_000);
    await queue.push([entry('a', 0, 1), entry('b', 0, 2), entry('c', 0, 3)]);
    expect(ids(await queue.peek('q', 2, 10))).toEqual(['a', 'b']);
    // 'c' is queued and not hinted: 'd' must not be served before it.
    await queue.push([entry('d', 0, 4), entry('first', 5, 9)]);
    expect(ids(await queue.peek('q', 5, 10))).toEqual(['first', 'a', 'b']);
    expect(peeks()).toBe(1);
  });

  it('expire after hintMs of the caller’s clock', async () => {
    const { queue: store, total: peeks } = countingQueue();
    const queue = hintedQueue(store, 100);
    await queue.push([entry('a'), entry('b')]);
    await queue.peek('q', 1, 1_000);
    await queue.peek('q', 1, 1_099);
    expect(peeks()).toBe(1);
    await queue.peek('q', 1, 1_100);
    expect(peeks()).toBe(2);
  });

  it('are off with hintMs 0: every peek reads the queue', async () => {
    const { queue: store, total: peeks } = countingQueue();
    const queue = hintedQueue(store, 0);
    await queue.push([entry('a'), entry('b')]);
    await queue.peek('q', 1, 10);
    await queue.peek('q', 1, 10);
    expect(peeks()).toBe(2);
  });
});

describe('a poll served stale hints', () => {
  let harness: EngineHarness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  it('looks at the queue again at once and takes the task another process queued', async () => {
    // Two engines on one store: this process's hints do not see the other's pushes and claims.
    const shared = createMemoryStores();
    const { queue, total: peeks } = countingQueue(shared.queue);
    const stores: Stores = { ...shared, queue };
    const hours = { 'service.tasks.poll.peek-hints': 3_600_000 };
    harness = await engineHarness({ stores, properties: hours });
    const other = await engineHarness({ stores: shared, properties: hours, clock: harness.clock });
    try {
      await harness.register(workflowDef({ name: 'hint_stale', tasks: [simpleTask('hs')] }));
      const [a, b] = [await harness.start('hint_stale'), await harness.start('hint_stale')];
      await harness.settle();
      const first = await harness.poll('hs_task');
      expect(first?.workflowInstanceId).toBe(a);
      // The other process claims b, which this one's hints still hold, and queues c.
      expect((await other.poll('hs_task'))?.workflowInstanceId).toBe(b);
      const c = await other.start('hint_stale');
      await other.settle();
      const before = peeks();
      const got = await harness.services.engine.tasks.poll('hs_task', { count: 1, timeoutMs: 60_000 });
      expect(got.map((t) => t.workflowInstanceId)).toEqual([c]);
      // The hinted look found only b (stale, dropped); the look after it read the queue.
      expect(peeks() - before).toBe(1);
    } finally {
      await other.close();
    }
  });
});
