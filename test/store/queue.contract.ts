/**
 * The contract of the TaskQueue and PollDataStore ports, run against every adapter:
 * queue.memory.test.ts and queue.dynamodb.test.ts. Workers are served highest priority first, then
 * oldest; entries are hints that stay until removed. An entry is stored under its queue, task,
 * priority and visibility: a push of the same entry changes nothing, and a remove takes exactly the
 * entry named (the DynamoDB adapter keys entries so; a task pushed again with another visibility
 * may keep its previous entry there until that one is removed).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PollDataStore, QueueEntry, TaskQueue } from '../../lib/store/ports.ts';
import type { StoresUnderTest } from './definitions.contract.ts';

const T0 = 1_700_000_000_000;

/** A queue entry visible from T0 at priority 0 unless told otherwise. */
export function entryOf(queueName: string, taskId: string, extra: Partial<QueueEntry> = {}): QueueEntry {
  return { queueName, taskId, workflowId: `wf-of-${taskId}`, priority: 0, visibleAt: T0, ...extra };
}

const taskIdsOf = (entries: readonly QueueEntry[]) => entries.map((e) => e.taskId);

export function queueStoreContract(name: string, factory: () => Promise<StoresUnderTest>): void {
  describe(`task queue and poll data contract: ${name}`, () => {
    let subject: StoresUnderTest;
    let queue: TaskQueue;
    let pollData: PollDataStore;

    beforeEach(async () => {
      subject = await factory();
      queue = subject.stores.queue;
      pollData = subject.stores.pollData;
    });

    afterEach(async () => {
      await subject.cleanup();
    });

    describe('task queue', () => {
      it('serves the highest priority first, then the soonest visible, with every field intact', async () => {
        await queue.push([
          entryOf('q', 'low-old', { priority: 1, visibleAt: T0 - 500 }),
          entryOf('q', 'high-new', { priority: 90, visibleAt: T0 - 10 }),
          entryOf('q', 'mid', { priority: 50, visibleAt: T0 - 100 }),
          entryOf('q', 'high-old', { priority: 90, visibleAt: T0 - 20 }),
        ]);
        await queue.push([entryOf('q', 'zero', { priority: 0, visibleAt: T0 - 1000 })]);
        await queue.push([entryOf('q', 'top', { priority: 99, visibleAt: T0 })]);

        const peeked = await queue.peek('q', 10, T0);

        expect(taskIdsOf(peeked)).toEqual(['top', 'high-old', 'high-new', 'mid', 'low-old', 'zero']);
        expect(peeked[1]).toEqual(entryOf('q', 'high-old', { priority: 90, visibleAt: T0 - 20 }));
      });

      it('returns at most the requested count, from the front', async () => {
        await queue.push([
          entryOf('q', 'c', { visibleAt: T0 - 1 }),
          entryOf('q', 'a', { visibleAt: T0 - 3 }),
          entryOf('q', 'b', { visibleAt: T0 - 2 }),
        ]);

        expect(taskIdsOf(await queue.peek('q', 2, T0))).toEqual(['a', 'b']);
        expect(await queue.peek('q', 0, T0)).toEqual([]);
      });

      it('hides an entry until now reaches its visibleAt, even ahead of lower priorities', async () => {
        await queue.push([
          entryOf('q', 'delayed-high', { priority: 80, visibleAt: T0 + 1000 }),
          entryOf('q', 'ready-low', { priority: 10, visibleAt: T0 }),
        ]);

        expect(taskIdsOf(await queue.peek('q', 10, T0))).toEqual(['ready-low']);
        expect(taskIdsOf(await queue.peek('q', 10, T0 + 999))).toEqual(['ready-low']);
        expect(taskIdsOf(await queue.peek('q', 10, T0 + 1000))).toEqual(['delayed-high', 'ready-low']);
        expect(await queue.peek('q', 10, T0 - 1)).toEqual([]);
      });

      it('finds visible entries behind more than a page of delayed higher-priority ones', async () => {
        const delayed = Array.from({ length: 120 }, (_, i) =>
          entryOf('q', `delayed-${i}`, { priority: 70, visibleAt: T0 + 60_000 + i }),
        );
        await queue.push([...delayed, entryOf('q', 'ready', { priority: 5 })]);

        expect(taskIdsOf(await queue.peek('q', 5, T0))).toEqual(['ready']);
        expect(await queue.size('q')).toBe(121);
      });

      it('keeps one entry when the same entry is pushed again', async () => {
        await queue.push([entryOf('q', 'task', { priority: 10, visibleAt: T0 - 5 })]);
        await queue.push([entryOf('q', 'task', { priority: 10, visibleAt: T0 - 5 })]);
        await queue.push([entryOf('q', 'task', { priority: 10, visibleAt: T0 - 5 })]);

        expect(await queue.size('q')).toBe(1);
        expect(await queue.peek('q', 10, T0)).toEqual([
          entryOf('q', 'task', { priority: 10, visibleAt: T0 - 5 }),
        ]);
      });

      it('serves a task pushed again with a new visibility, its previous entry removed, at its new place', async () => {
        const first = entryOf('q', 'task', { priority: 10, visibleAt: T0 - 50 });
        await queue.push([first, entryOf('q', 'other', { priority: 10, visibleAt: T0 - 20 })]);
        const later = entryOf('q', 'task', { priority: 10, visibleAt: T0 + 5000, workflowId: 'wf-again' });

        await queue.push([later]);
        await queue.remove(first);

        expect(await queue.size('q')).toBe(2);
        expect(taskIdsOf(await queue.peek('q', 10, T0))).toEqual(['other']);
        expect(await queue.peek('q', 10, T0 + 5000)).toEqual([
          entryOf('q', 'other', { priority: 10, visibleAt: T0 - 20 }),
          later,
        ]);
      });

      it('leaves the entry a task was pushed again with when its superseded entry is removed later', async () => {
        const old = entryOf('q', 'task', { visibleAt: T0 - 100 });
        await queue.push([old]);
        const [peeked] = await queue.peek('q', 1, T0);
        const current = entryOf('q', 'task', { visibleAt: T0 - 10 });

        await queue.push([current]);
        await queue.remove(peeked as QueueEntry);

        expect(await queue.peek('q', 10, T0)).toEqual([current]);
        await queue.remove(current);
        expect(await queue.size('q')).toBe(0);
      });

      it('keeps the last of several pushes of one task in a single call', async () => {
        await queue.push([entryOf('q', 'twice', { priority: 1 }), entryOf('q', 'twice', { priority: 2 })]);

        expect(await queue.peek('q', 10, T0)).toEqual([entryOf('q', 'twice', { priority: 2 })]);
      });

      it('leaves entries in place when peeked', async () => {
        await queue.push([entryOf('q', 'stays')]);

        await queue.peek('q', 10, T0);

        expect(taskIdsOf(await queue.peek('q', 10, T0))).toEqual(['stays']);
        expect(await queue.size('q')).toBe(1);
      });

      it('removes one entry from one queue only, and ignores removing what is absent', async () => {
        await queue.push([entryOf('q', 'gone'), entryOf('q', 'kept'), entryOf('q2', 'gone')]);

        await queue.remove(entryOf('q', 'gone'));
        await queue.remove(entryOf('q', 'never-pushed'));
        await queue.remove(entryOf('no-such-queue', 'gone'));
        await queue.remove(entryOf('q', 'kept', { visibleAt: T0 + 1 }));

        expect(taskIdsOf(await queue.peek('q', 10, T0))).toEqual(['kept']);
        expect(taskIdsOf(await queue.peek('q2', 10, T0))).toEqual(['gone']);
      });

      it('removes many entries at once, across queues, each by its key, ignoring absent and repeated ones', async () => {
        const many = Array.from({ length: 30 }, (_, i) =>
          entryOf(i % 2 ? 'odd' : 'even', `bulk-${i}`, { priority: i % 3, visibleAt: T0 - i }),
        );
        await queue.push([...many, entryOf('even', 'stays'), entryOf('odd', 'moved', { visibleAt: T0 + 5 })]);

        await queue.removeAll([
          ...many,
          many[0] as QueueEntry,
          entryOf('even', 'never-pushed'),
          entryOf('odd', 'moved', { visibleAt: T0 + 1 }),
        ]);
        await queue.removeAll([]);

        expect(await queue.sizes()).toEqual({ even: 1, odd: 1 });
        expect(taskIdsOf(await queue.peek('even', 10, T0))).toEqual(['stays']);
        expect(taskIdsOf(await queue.peek('odd', 10, T0 + 5))).toEqual(['moved']);
      });

      it('removes an entry as peeked', async () => {
        await queue.push([entryOf('q', 'a', { priority: 7, visibleAt: T0 - 3 }), entryOf('q', 'b')]);

        for (const entry of await queue.peek('q', 10, T0)) await queue.remove(entry);

        expect(await queue.size('q')).toBe(0);
        expect(await queue.sizes()).toEqual({});
      });

      it('keeps priority, then visibility order across many tasks, hiding the ones not visible yet', async () => {
        const entries = Array.from({ length: 48 }, (_, i) =>
          entryOf('many', `task-${i}`, {
            priority: (i * 7) % 5,
            visibleAt: T0 - 1000 + ((i * 37) % 50) * 40,
          }),
        );
        await queue.push(entries);

        const now = T0 - 1000 + 25 * 40;
        const expected = entries
          .filter((e) => e.visibleAt <= now)
          .sort((a, b) => b.priority - a.priority || a.visibleAt - b.visibleAt)
          .map((e) => e.taskId);
        expect(expected.length).toBeGreaterThan(10);
        expect(expected.length).toBeLessThan(48);
        expect(taskIdsOf(await queue.peek('many', 48, now))).toEqual(expected);
        expect(taskIdsOf(await queue.peek('many', 7, now))).toEqual(expected.slice(0, 7));
      });

      it('counts visible and invisible entries per queue, without mixing queues sharing a prefix', async () => {
        await queue.push([
          entryOf('blue:task', 'a'),
          entryOf('blue:task', 'b', { visibleAt: T0 + 60_000 }),
          entryOf('blue:task#2', 'c'),
        ]);

        expect(await queue.size('blue:task')).toBe(2);
        expect(await queue.size('blue:task#2')).toBe(1);
        expect(await queue.size('empty')).toBe(0);
        expect(taskIdsOf(await queue.peek('blue:task', 10, T0))).toEqual(['a']);
      });

      it('reports the size of every non-empty queue by name', async () => {
        await queue.push([
          entryOf('beta', 'x'),
          entryOf('alpha', 'y'),
          entryOf('alpha', 'z'),
          entryOf('gamma', 'w'),
        ]);
        await queue.remove(entryOf('gamma', 'w'));

        expect(await queue.sizes()).toEqual({ alpha: 2, beta: 1 });
      });

      it('reports no sizes when every queue is empty', async () => {
        expect(await queue.sizes()).toEqual({});
      });
    });

    describe('poll data', () => {
      it('keeps the latest poll per queue and worker', async () => {
        await pollData.record({ queueName: 'q', workerId: 'w1', domain: 'blue', lastPollTime: T0 });
        await pollData.record({ queueName: 'q', workerId: 'w2', lastPollTime: T0 + 1 });
        await pollData.record({ queueName: 'q', workerId: 'w1', domain: 'blue', lastPollTime: T0 + 5 });

        const listed = await pollData.list('q');

        expect(listed).toHaveLength(2);
        expect(listed).toEqual(
          expect.arrayContaining([
            { queueName: 'q', workerId: 'w1', domain: 'blue', lastPollTime: T0 + 5 },
            { queueName: 'q', workerId: 'w2', lastPollTime: T0 + 1 },
          ]),
        );
      });

      it('keeps polls without a worker id apart from a worker named "-"', async () => {
        await pollData.record({ queueName: 'q', lastPollTime: T0 });
        await pollData.record({ queueName: 'q', workerId: '-', lastPollTime: T0 + 1 });
        await pollData.record({ queueName: 'q', lastPollTime: T0 + 2 });

        expect(await pollData.list('q')).toEqual(
          expect.arrayContaining([
            { queueName: 'q', lastPollTime: T0 + 2 },
            { queueName: 'q', workerId: '-', lastPollTime: T0 + 1 },
          ]),
        );
        expect(await pollData.list('q')).toHaveLength(2);
      });

      it('lists one queue when named, and every queue by name otherwise', async () => {
        await pollData.record({ queueName: 'zeta', workerId: 'w', lastPollTime: T0 });
        await pollData.record({ queueName: 'alpha', workerId: 'w', lastPollTime: T0 + 1 });
        await pollData.record({ queueName: 'alpha#2', workerId: 'w', lastPollTime: T0 + 2 });
        await queue.push([entryOf('alpha', 'not-poll-data')]);

        expect(await pollData.list('alpha')).toEqual([
          { queueName: 'alpha', workerId: 'w', lastPollTime: T0 + 1 },
        ]);
        expect((await pollData.list()).map((d) => d.queueName)).toEqual(['alpha', 'alpha#2', 'zeta']);
        expect(await pollData.list('nobody-polled')).toEqual([]);
      });
    });
  });
}
