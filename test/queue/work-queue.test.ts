// The work-queue contract against the local adapter (manual timers) and the SQS adapter (a fake
// SQS client and broker at the adapter's edge, delivering through the consumers' batch loop).
import { describe, expect, it } from 'vitest';
import { consumeBatch } from '../../lib/jobs/batch.ts';
import { silentLogger } from '../../lib/log/logger.ts';
import { ManualClock } from '../../lib/model/clock.ts';
import { LocalWorkQueue } from '../../lib/queue/local-work-queue.ts';
import { SqsWorkQueue } from '../../lib/queue/sqs-work-queue.ts';
import { FakeSqsBroker } from './fake-sqs-broker.ts';
import { ManualTimers } from './manual-timers.ts';
import { sequentialIds } from './sqs-host.ts';
import { type TestMessage, workQueueContract } from './work-queue.contract.ts';

const REDELIVERY_MS = 1000;

workQueueContract('local', async (type, handle) => {
  const clock = new ManualClock();
  const timers = new ManualTimers(clock);
  const queue = new LocalWorkQueue<TestMessage>({
    name: 'test',
    type,
    logger: silentLogger,
    timers,
    retryDelayMs: REDELIVERY_MS,
    maxAttempts: 3,
  });
  queue.register(handle);
  const settle = async () => {
    do await queue.idle();
    while (timers.fireDue());
    await queue.idle();
  };
  return {
    queue,
    settle,
    async advance(ms) {
      clock.advance(ms);
      await settle();
    },
    redeliveryMs: REDELIVERY_MS,
    close: () => queue.close(),
  };
});

const URL = 'https://sqs.us-east-1.amazonaws.com/000000000000/test';

workQueueContract('SQS', async (type, handle) => {
  const clock = new ManualClock();
  // As if the queue's maxReceiveCount were 3: a message failed three times is no longer delivered.
  const receives = new Map<string, number>();
  const broker = new FakeSqsBroker(clock, REDELIVERY_MS);
  const queue = new SqsWorkQueue<TestMessage>(
    broker.client.asClient(),
    { name: 'test', url: URL, type },
    sequentialIds(),
  );
  const settle = () =>
    broker.deliver(URL, 10, (records) =>
      consumeBatch(
        records.filter((r) => {
          const count = (receives.get(r.messageId) ?? 0) + 1;
          receives.set(r.messageId, count);
          return count <= 3;
        }),
        {
          name: 'test',
          decode: (body) => body as TestMessage,
          key: (message) => message.group,
          handle,
        },
        silentLogger,
      ),
    );
  return {
    queue,
    settle,
    async advance(ms) {
      clock.advance(ms);
      await settle();
    },
    redeliveryMs: REDELIVERY_MS,
    close: async () => {},
  };
});

describe('LocalWorkQueue.settled', () => {
  it('waits for the messages of the group sent so far, not for later ones or other groups', async () => {
    const handled: string[] = [];
    const gates = new Map<string, () => void>();
    const queue = new LocalWorkQueue<{ id: string }>({
      name: 'settle',
      type: 'fifo',
      logger: silentLogger,
      coalesce: (waiting) => waiting,
    });
    queue.register(
      (message) =>
        new Promise<void>((resolve) => {
          gates.set(message.id, () => {
            handled.push(message.id);
            resolve();
          });
        }),
    );
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    await queue.send({ id: 'a1' }, { groupId: 'a' });
    await queue.send({ id: 'a2' }, { groupId: 'a' });
    // Coalesced into a2, which covers it.
    await queue.send({ id: 'a2-again' }, { groupId: 'a' });
    await queue.send({ id: 'b1' }, { groupId: 'b' });
    let settled = false;
    const waiting = queue.settled('a').then(() => {
      settled = true;
    });
    gates.get('a1')?.();
    await turn();
    expect(settled).toBe(false);
    // Sent after the call: not waited for.
    await queue.send({ id: 'a3' }, { groupId: 'a' });
    gates.get('a2')?.();
    await waiting;
    expect(handled).toEqual(['a1', 'a2']);
    // A group with nothing in it is settled at once; group b still runs meanwhile.
    await queue.settled('nothing-here');
    await turn();
    gates.get('a3')?.();
    gates.get('b1')?.();
    await queue.close();
    expect(handled).toEqual(['a1', 'a2', 'a3', 'b1']);
  });
});
