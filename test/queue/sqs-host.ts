/**
 * The AWS host's background work over memory stores, the real engine and SqsDecisionQueue on a
 * fake SQS client: what the consumer and job tests run against.
 */

import { configOf } from '../../lib/config/load.ts';
import type { ScriptEvaluator } from '../../lib/engine/script/evaluator.ts';
import { eventProcessorOf } from '../../lib/events/capability.ts';
import type { EventDeps } from '../../lib/events/consumer.ts';
import type { JobDeps } from '../../lib/jobs/types.ts';
import { silentLogger } from '../../lib/log/logger.ts';
import { ManualClock } from '../../lib/model/clock.ts';
import type { IdGenerator } from '../../lib/model/ids.ts';
import { SqsDecisionQueue } from '../../lib/queue/sqs.ts';
import type { Services } from '../../lib/runtime/compose.ts';
import { createServices } from '../../lib/runtime/services.ts';
import { createMemoryStores } from '../../lib/runtime/stores.ts';
import { simpleTask, workflowDef } from '../helpers/fixtures.ts';
import { FakeSqsClient } from './fake-sqs.ts';

export const DECISIONS = 'https://sqs.us-east-1.amazonaws.com/000000000000/decisions.fifo';
export const TIMERS = 'https://sqs.us-east-1.amazonaws.com/000000000000/timers';
export const MINUTE = 60_000;

/** These runs execute no scripts. */
const noScripts: ScriptEvaluator = {
  evaluate: async () => {
    throw new Error('no scripts in these tests');
  },
  close: async () => {},
};

export function sequentialIds(): IdGenerator {
  let n = 0;
  return { random: () => `id-${++n}` };
}

export interface Host {
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

export function host(): Host {
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

/** What a job or consumer gets on this host, with the decide it would run (the engine's by default). */
export function depsOf(h: Host, decide?: (workflowId: string) => Promise<void>): JobDeps & EventDeps {
  const { stores, decisions, clock } = h.services;
  return {
    stores,
    decisions,
    clock,
    logger: silentLogger,
    decide: decide ?? ((id) => h.services.engine.executor.decide(id)),
    runSystemTask: (message) => h.services.engine.systemTasks.run(message),
    handleEvent: async (message) => void (await eventProcessorOf(h.services).handle(message)),
  };
}
