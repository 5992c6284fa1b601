// The decider, timer consumer and sweeper of the AWS host, over memory stores, the real engine and
// SqsDecisionQueue on a fake SQS client.
import { beforeEach, describe, expect, it } from 'vitest';
import { configOf } from '../../lib/config/load.ts';
import type { ScriptEvaluator } from '../../lib/engine/script/evaluator.ts';
import { silentLogger } from '../../lib/log/logger.ts';
import { ManualClock } from '../../lib/model/clock.ts';
import type { IdGenerator } from '../../lib/model/ids.ts';
import { SqsDecisionQueue } from '../../lib/queue/sqs.ts';
import { consumeDecisions, consumeTimers, sweepWakeups } from '../../lib/runtime/aws-consumers.ts';
import { createServices, type Services } from '../../lib/runtime/services.ts';
import { createMemoryStores } from '../../lib/runtime/stores.ts';
import { simpleTask, workflowDef } from '../helpers/fixtures.ts';
import { decisionEvent, FakeSqsClient, sqsRecord } from '../queue/fake-sqs.ts';

const DECISIONS = 'https://sqs.us-east-1.amazonaws.com/000000000000/decisions.fifo';
const TIMERS = 'https://sqs.us-east-1.amazonaws.com/000000000000/timers';
const MINUTE = 60_000;

/** These runs execute no scripts. */
const noScripts: ScriptEvaluator = {
  evaluate: async () => {
    throw new Error('no scripts in these tests');
  },
  close: async () => {},
};

function sequentialIds(): IdGenerator {
  let n = 0;
  return { random: () => `id-${++n}` };
}

interface Host {
  clock: ManualClock;
  sqs: FakeSqsClient;
  services: Services;
  /** Runs whose record reads fail, as if the store were unreachable for them. */
  unreadable: Set<string>;
  /** Starts a run of a one-SIMPLE-task workflow at the current time (due for its first decide). */
  start(): Promise<string>;
  /** The messages sent so far to a queue, as workflow ids; clears the record. */
  takeSent(queueUrl: string): string[];
}

function host(): Host {
  const clock = new ManualClock();
  const sqs = new FakeSqsClient();
  const stores = createMemoryStores();
  const unreadable = new Set<string>();
  const getWorkflow = stores.executions.getWorkflow.bind(stores.executions);
  stores.executions.getWorkflow = async (workflowId) => {
    if (unreadable.has(workflowId)) throw new Error(`store unavailable for ${workflowId}`);
    return getWorkflow(workflowId);
  };
  const services = createServices({
    config: configOf({ 'service.store': 'memory', 'service.instance-id': 'aws-consumers-test' }),
    logger: silentLogger,
    clock,
    stores,
    decisions: new SqsDecisionQueue(
      sqs.asClient(),
      { decisions: DECISIONS, timers: TIMERS },
      clock,
      sequentialIds(),
    ),
    scripts: noScripts,
    ids: sequentialIds(),
  });
  return {
    clock,
    sqs,
    services,
    unreadable,
    start: () =>
      services.engine.starter.start({
        name: 'ignored',
        workflowDef: workflowDef({ tasks: [simpleTask('work')] }),
      }),
    takeSent(queueUrl) {
      const ids = sqs.workflowIdsSentTo(queueUrl);
      sqs.sent.splice(0);
      return ids;
    },
  };
}

describe('the decider consumer', () => {
  let h: Host;
  const decide = (id: string) => h.services.engine.executor.decide(id);

  beforeEach(() => {
    h = host();
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

describe('the sweeper', () => {
  let h: Host;
  const sweep = (limit?: number) =>
    sweepWakeups(
      {
        executions: h.services.stores.executions,
        decisions: h.services.decisions,
        clock: h.clock,
        logger: silentLogger,
      },
      limit,
    );

  beforeEach(() => {
    h = host();
  });

  it('requests a decide of each run whose wake-up has come, and of no other', async () => {
    const t0 = h.clock.now();
    h.clock.set(t0 + 10 * MINUTE);
    await h.start(); // due at t0 + 10 min
    h.clock.set(t0);
    const due = await h.start(); // due at t0
    h.takeSent(DECISIONS);

    h.clock.set(t0 + MINUTE);
    expect(await sweep()).toEqual({ due: 1, requested: 1 });
    expect(h.sqs.sent.map((input) => [input.QueueUrl, input.MessageGroupId])).toEqual([[DECISIONS, due]]);
  });

  it('takes at most its limit of runs per sweep, the longest overdue first', async () => {
    const first = await h.start();
    h.clock.advance(30_000);
    await h.start();
    h.takeSent(DECISIONS);

    h.clock.advance(MINUTE);
    expect(await sweep(1)).toEqual({ due: 1, requested: 1 });
    expect(h.takeSent(DECISIONS)).toEqual([first]);
  });

  it('still requests the other runs when one request fails, then fails the sweep', async () => {
    const a = await h.start();
    const b = await h.start();
    h.takeSent(DECISIONS);
    h.sqs.failWhen = (input) => input.MessageGroupId === a;

    h.clock.advance(MINUTE);
    await expect(sweep()).rejects.toThrow(/1 of 2 decide requests failed/);
    expect(h.takeSent(DECISIONS)).toEqual([b]);
  });
});
