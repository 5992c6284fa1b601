// SqsDecisionQueue against a fake SQS client: which queue each request goes to, and with what.
import { beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../lib/model/clock.ts';
import { TransientError } from '../../lib/model/errors.ts';
import type { IdGenerator } from '../../lib/model/ids.ts';
import { MAX_SQS_DELAY_SECONDS, SqsDecisionQueue } from '../../lib/queue/sqs.ts';
import { FakeSqsClient } from './fake-sqs.ts';

const DECISIONS = 'https://sqs.us-east-1.amazonaws.com/000000000000/decisions.fifo';
const TIMERS = 'https://sqs.us-east-1.amazonaws.com/000000000000/timers';

function countingIds(): IdGenerator {
  let n = 0;
  return { random: () => `dedup-${++n}` };
}

describe('SqsDecisionQueue', () => {
  let sqs: FakeSqsClient;
  let clock: ManualClock;
  let queue: SqsDecisionQueue;

  beforeEach(() => {
    sqs = new FakeSqsClient();
    clock = new ManualClock();
    queue = new SqsDecisionQueue(
      sqs.asClient(),
      { decisions: DECISIONS, timers: TIMERS },
      clock,
      countingIds(),
    );
  });

  it('sends a decide request to the FIFO queue in the message group of the run', async () => {
    await queue.request('wf-1');
    expect(sqs.sent).toEqual([
      {
        QueueUrl: DECISIONS,
        MessageBody: JSON.stringify({ workflowId: 'wf-1' }),
        MessageGroupId: 'wf-1',
        MessageDeduplicationId: 'dedup-1',
      },
    ]);
  });

  it('sends the task ids of a request for changed rows in its body', async () => {
    await queue.requestForTasks('wf-1', ['t-1']);
    expect(sqs.sent).toEqual([
      {
        QueueUrl: DECISIONS,
        MessageBody: JSON.stringify({ workflowId: 'wf-1', taskIds: ['t-1'] }),
        MessageGroupId: 'wf-1',
        MessageDeduplicationId: 'dedup-1',
      },
    ]);
  });

  it('gives every request its own deduplication id, so a second request for a run is not swallowed', async () => {
    await queue.request('wf-1');
    await queue.request('wf-1');
    const ids = sqs.sent.map((input) => input.MessageDeduplicationId);
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
  });

  it('sends a delayed request to the timer queue with the delay rounded up to whole seconds', async () => {
    await queue.request('wf-1', 1500);
    expect(sqs.sent).toEqual([
      { QueueUrl: TIMERS, MessageBody: JSON.stringify({ workflowId: 'wf-1' }), DelaySeconds: 2 },
    ]);
    expect(sqs.sent[0]).not.toHaveProperty('MessageGroupId');
  });

  it('caps the delay of a request at the SQS limit of 900 seconds', async () => {
    await queue.request('wf-1', 20 * 60 * 1000);
    expect(sqs.sent.map((input) => [input.QueueUrl, input.DelaySeconds])).toEqual([
      [TIMERS, MAX_SQS_DELAY_SECONDS],
    ]);
  });

  it('arms a wake-up within 15 minutes on the timer queue, the delay rounded up', async () => {
    await queue.wakeAt('wf-1', clock.now() + 61_001);
    await queue.wakeAt('wf-2', clock.now() + MAX_SQS_DELAY_SECONDS * 1000);
    expect(sqs.sent.map((input) => [input.QueueUrl, input.MessageBody, input.DelaySeconds])).toEqual([
      [TIMERS, JSON.stringify({ workflowId: 'wf-1' }), 62],
      [TIMERS, JSON.stringify({ workflowId: 'wf-2' }), 900],
    ]);
  });

  it('sends a wake-up that is already due through the timer queue with no delay', async () => {
    await queue.wakeAt('wf-1', clock.now() - 5000);
    expect(sqs.sent.map((input) => [input.QueueUrl, input.DelaySeconds])).toEqual([[TIMERS, 0]]);
  });

  it('sends nothing for a wake-up beyond 15 minutes: the sweeper finds the run when it is due', async () => {
    await queue.wakeAt('wf-1', clock.now() + MAX_SQS_DELAY_SECONDS * 1000 + 1);
    await queue.wakeAt('wf-2', clock.now() + 24 * 3600 * 1000);
    expect(sqs.sent).toEqual([]);
  });

  it('sends nothing for a wake-up a commit within 15 minutes of it already stored (and armed)', async () => {
    const at = clock.now() + 300_000;
    await queue.wakeAt('wf-1', at, clock.now() - 60_000);
    expect(sqs.sent).toEqual([]);
    // Kept from a commit made when it was beyond the limit, which sent nothing: armed now.
    await queue.wakeAt('wf-2', at, at - MAX_SQS_DELAY_SECONDS * 1000 - 1);
    expect(sqs.sent.map((input) => [input.MessageBody, input.DelaySeconds])).toEqual([
      [JSON.stringify({ workflowId: 'wf-2' }), 300],
    ]);
  });

  it('sends nothing when a wake-up is cleared with 0', async () => {
    await queue.wakeAt('wf-1', 0);
    expect(sqs.sent).toEqual([]);
  });

  it('turns a refused send into a retryable error, so the caller (or its queue) retries', async () => {
    sqs.failWhen = () => true;
    const failure = await queue.request('wf-1').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(TransientError);
    expect((failure as TransientError).retryable).toBe(true);
    expect(String((failure as Error).cause)).toMatch(/refused/);
  });
});
