// The decider and timer consumers of the AWS host (lib/jobs/decision-consumers.ts through the
// batch loop of lib/jobs/batch.ts), over memory stores, the real engine and SqsDecisionQueue on a
// fake SQS client.
import type { SQSEvent } from 'aws-lambda';
import { beforeEach, describe, expect, it } from 'vitest';
import { runConsumer } from '../../lib/jobs/batch.ts';
import { decider, timer } from '../../lib/jobs/decision-consumers.ts';
import type { JobDeps } from '../../lib/jobs/types.ts';
import { silentLogger } from '../../lib/log/logger.ts';
import { decisionEvent, sqsRecord } from '../queue/fake-sqs.ts';
import { DECISIONS, depsOf, type Host, host } from '../queue/sqs-host.ts';

/** The decider consumer over one batch, with the decide it runs. */
function consumeDecisions(event: SQSEvent, deps: { decide: (workflowId: string) => Promise<void> } & Logged) {
  return runConsumer(decider, event.Records, { ...depsOf(current), ...deps });
}

/** The timer consumer over one batch, forwarding to the given decision queue. */
function consumeTimers(event: SQSEvent, deps: Pick<JobDeps, 'decisions'> & Logged) {
  return runConsumer(timer, event.Records, { ...depsOf(current), ...deps });
}

type Logged = Pick<JobDeps, 'logger'>;

/** The host of the running test. */
let current: Host;

describe('the decider consumer', () => {
  let h: Host;
  const decide = (id: string) => h.services.engine.executor.decide(id);

  beforeEach(() => {
    h = host();
    current = h;
  });

  it('decides every run of the batch and reports exactly the message whose decide failed', async () => {
    const [a, b, c] = [await h.start(), await h.start(), await h.start()];
    h.unreadable.add(b);
    const response = await consumeDecisions(decisionEvent(['m-a', a], ['m-b', b], ['m-c', c]), {
      decide,
      logger: silentLogger,
    });
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-b' }] });
    for (const id of [a, c]) {
      const tasks = await h.services.stores.executions.listTasks(id);
      expect(tasks.map((t) => [t.referenceTaskName, t.status])).toEqual([['work', 'SCHEDULED']]);
    }
    h.unreadable.clear();
    expect(await h.services.stores.executions.listTasks(b)).toEqual([]);
  });

  it('decides a run once for all its messages in a batch, and reports all of them when that fails', async () => {
    const a = await h.start();
    const calls: string[] = [];
    const counting = async (id: string) => {
      calls.push(id);
      await decide(id);
    };
    const event = decisionEvent(['m-1', a], ['m-2', a]);
    expect(await consumeDecisions(event, { decide: counting, logger: silentLogger })).toEqual({
      batchItemFailures: [],
    });
    expect(calls).toEqual([a]);

    h.unreadable.add(a);
    const failed = await consumeDecisions(event, { decide, logger: silentLogger });
    expect(failed.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(['m-1', 'm-2']);
  });

  it('drops messages that name no workflow instead of retrying them, and decides the rest', async () => {
    const a = await h.start();
    const calls: string[] = [];
    const response = await consumeDecisions(
      {
        Records: [
          sqsRecord('junk-1', 'not json'),
          sqsRecord('junk-2', '{}'),
          sqsRecord('junk-3', JSON.stringify({ workflowId: 7 })),
          sqsRecord('good', JSON.stringify({ workflowId: a })),
        ],
      },
      { decide: async (id) => void calls.push(id), logger: silentLogger },
    );
    expect(response).toEqual({ batchItemFailures: [] });
    expect(calls).toEqual([a]);
  });
});

describe('the timer consumer', () => {
  let h: Host;

  beforeEach(() => {
    h = host();
    current = h;
  });

  it('forwards each due wake-up to the FIFO decision queue in the message group of its run', async () => {
    const response = await consumeTimers(decisionEvent(['t-1', 'wf-a'], ['t-2', 'wf-b']), {
      decisions: h.services.decisions,
      logger: silentLogger,
    });
    expect(response).toEqual({ batchItemFailures: [] });
    expect(h.sqs.sent.map((input) => [input.QueueUrl, input.MessageGroupId, input.DelaySeconds])).toEqual([
      [DECISIONS, 'wf-a', undefined],
      [DECISIONS, 'wf-b', undefined],
    ]);
  });

  it('reports the wake-ups it could not forward, so SQS delivers them again', async () => {
    h.sqs.failWhen = (input) => input.MessageGroupId === 'wf-b';
    const response = await consumeTimers(decisionEvent(['t-1', 'wf-a'], ['t-2', 'wf-b']), {
      decisions: h.services.decisions,
      logger: silentLogger,
    });
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 't-2' }] });
    expect(h.takeSent(DECISIONS)).toEqual(['wf-a']);
  });
});
