/**
 * The work-queue contract (lib/queue/ports.ts), one suite for every adapter: delivery, message
 * groups, delays, redelivery after a failure, and the sends every adapter refuses. Each adapter's
 * test file gives a harness that moves time by hand, so nothing here sleeps.
 */
import { describe, expect, it } from 'vitest';
import { MAX_WORK_QUEUE_DELAY_MS, type WorkQueue } from '../../lib/queue/ports.ts';
import type { WorkQueueType } from '../../lib/queue/work-queues.ts';

export interface TestMessage {
  n: number;
  group?: string;
}

export interface WorkQueueHarness {
  queue: WorkQueue<TestMessage>;
  /** Delivers whatever is due by now to the consumer and waits until it is handled. */
  settle(): Promise<void>;
  /** Moves time on (then settles). */
  advance(ms: number): Promise<void>;
  /** How long after a failure the adapter delivers the message again. */
  redeliveryMs: number;
  close(): Promise<void>;
}

/** Builds an adapter of the given type whose consumer is `handle`. */
export type HarnessFactory = (
  type: WorkQueueType,
  handle: (message: TestMessage) => Promise<void>,
) => Promise<WorkQueueHarness>;

/** A consumer that records what it handled and how many messages of a group ran at once. */
function recorder(failures: Map<number, number> = new Map()) {
  const handled: TestMessage[] = [];
  const inFlight = new Map<string, number>();
  let maxInGroup = 0;
  const handle = async (message: TestMessage): Promise<void> => {
    const group = message.group ?? `single-${message.n}`;
    const now = (inFlight.get(group) ?? 0) + 1;
    inFlight.set(group, now);
    maxInGroup = Math.max(maxInGroup, now);
    // Yield, so that a second message of the group would start meanwhile if the adapter let it.
    await new Promise((resolve) => setImmediate(resolve));
    inFlight.set(group, now - 1);
    handled.push(message);
    const left = failures.get(message.n) ?? 0;
    if (left > 0) {
      failures.set(message.n, left - 1);
      throw new Error(`message ${message.n} fails`);
    }
  };
  return { handled, handle, maxInGroup: () => maxInGroup };
}

const ns = (messages: TestMessage[]) => messages.map((m) => m.n);

export function workQueueContract(adapter: string, harness: HarnessFactory): void {
  describe(`WorkQueue contract: ${adapter}`, () => {
    describe('FIFO', () => {
      it('delivers each message once, as sent', async () => {
        const r = recorder();
        const h = await harness('fifo', r.handle);
        await h.queue.send({ n: 1, group: 'a' }, { groupId: 'a' });
        await h.queue.send({ n: 2, group: 'b' }, { groupId: 'b' });
        await h.settle();
        expect(r.handled.sort((x, y) => x.n - y.n)).toEqual([
          { n: 1, group: 'a' },
          { n: 2, group: 'b' },
        ]);
        await h.close();
      });

      it('hands the messages of one group over one at a time, in send order', async () => {
        const r = recorder();
        const h = await harness('fifo', r.handle);
        for (const n of [1, 2, 3, 4]) await h.queue.send({ n, group: 'a' }, { groupId: 'a' });
        for (const n of [5, 6]) await h.queue.send({ n, group: 'b' }, { groupId: 'b' });
        await h.settle();
        expect(ns(r.handled.filter((m) => m.group === 'a'))).toEqual([1, 2, 3, 4]);
        expect(ns(r.handled.filter((m) => m.group === 'b'))).toEqual([5, 6]);
        expect(r.maxInGroup()).toBe(1);
        await h.close();
      });

      it('delivers a failed message again, holding back the rest of its group until then', async () => {
        const r = recorder(new Map([[1, 1]]));
        const h = await harness('fifo', r.handle);
        await h.queue.send({ n: 1, group: 'a' }, { groupId: 'a' });
        await h.queue.send({ n: 2, group: 'a' }, { groupId: 'a' });
        await h.settle();
        expect(ns(r.handled)).toEqual([1]);
        await h.advance(h.redeliveryMs);
        expect(ns(r.handled)).toEqual([1, 1, 2]);
        await h.close();
      });

      it('refuses a message without a group, and a delay, which SQS FIFO queues do not take', async () => {
        const h = await harness('fifo', recorder().handle);
        await expect(h.queue.send({ n: 1 })).rejects.toThrow(RangeError);
        await expect(h.queue.send({ n: 1 }, { groupId: 'a', delayMs: 1000 })).rejects.toThrow(/delay/);
        await h.close();
      });
    });

    describe('standard', () => {
      it('delivers each message once, as sent, with or without a delay of 0', async () => {
        const r = recorder();
        const h = await harness('standard', r.handle);
        await h.queue.send({ n: 1 });
        await h.queue.send({ n: 2 }, { delayMs: 0 });
        await h.settle();
        expect(ns(r.handled).sort()).toEqual([1, 2]);
        await h.close();
      });

      it('holds a delayed message until its delay has passed', async () => {
        const r = recorder();
        const h = await harness('standard', r.handle);
        await h.queue.send({ n: 1 }, { delayMs: 5000 });
        await h.settle();
        await h.advance(3000);
        expect(r.handled).toEqual([]);
        await h.advance(2000);
        expect(ns(r.handled)).toEqual([1]);
        await h.close();
      });

      it('delivers a message whose handling failed again, after the redelivery pause', async () => {
        const r = recorder(new Map([[7, 2]]));
        const h = await harness('standard', r.handle);
        await h.queue.send({ n: 7 });
        await h.settle();
        expect(ns(r.handled)).toEqual([7]);
        await h.advance(h.redeliveryMs);
        await h.advance(h.redeliveryMs);
        expect(ns(r.handled)).toEqual([7, 7, 7]);
        await h.advance(h.redeliveryMs);
        expect(ns(r.handled)).toEqual([7, 7, 7]);
        await h.close();
      });

      it('takes a delay of up to 15 minutes and refuses a longer or negative one', async () => {
        const h = await harness('standard', recorder().handle);
        await h.queue.send({ n: 1 }, { delayMs: MAX_WORK_QUEUE_DELAY_MS });
        await expect(h.queue.send({ n: 2 }, { delayMs: MAX_WORK_QUEUE_DELAY_MS + 1 })).rejects.toThrow(
          RangeError,
        );
        await expect(h.queue.send({ n: 3 }, { delayMs: -1 })).rejects.toThrow(RangeError);
        await h.close();
      });
    });
  });
}
