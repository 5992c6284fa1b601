/**
 * SQS on AWS: the `sqsQueues` adapter of the functions that send to a work queue.
 */
import { SQSClient } from '@aws-sdk/client-sqs';
import { queueUrlProperty, WORK_QUEUES } from '../../catalog.ts';
import type { ServiceConfig } from '../../config/service-config.ts';
import { systemClock } from '../../model/clock.ts';
import { randomIds } from '../../model/ids.ts';
import type { DecisionQueue } from '../../queue/ports.ts';
import { SqsDecisionQueue } from '../../queue/sqs.ts';
import { SqsWorkQueue } from '../../queue/sqs-work-queue.ts';
import type { WorkQueueName } from '../../queue/work-queues.ts';
import { type AwsAdapter, unwiredDecisionQueue } from '../aws.ts';

/**
 * The decision queue and the work queues on SQS, for functions that send to a work queue (the
 * stack gives those every queue's URL, and the right to send to theirs): one SQS client for every
 * queue, its connections shared.
 */
export const sqsQueues: AwsAdapter = ({ config }) => {
  const sqs = new SQSClient({});
  return { decisions: decisionQueueFrom(config, sqs), workQueues: workQueuesFrom(config, sqs) };
};

function decisionQueueFrom(config: ServiceConfig, sqs: SQSClient): DecisionQueue {
  const decisions = config.string(queueUrlProperty('decisions'));
  const timers = config.string(queueUrlProperty('timers'));
  if (decisions === undefined || timers === undefined) return unwiredDecisionQueue();
  return new SqsDecisionQueue(sqs, { decisions, timers }, systemClock, randomIds);
}

/** The queues the decision queue is made of (it has its own port, DecisionQueue). */
const DECISION_QUEUES: readonly WorkQueueName[] = ['decisions', 'timers'];

/**
 * Every consumer's queue the stack gave this function the URL of (with the right to send,
 * `sends: [...]`): schedule fires, system tasks (HTTP; the decider never makes a request itself,
 * which would hold a decide on a slow endpoint), `conductor:` events. A queue without its URL stays
 * unwired: a send fails naming the property (the executor fails such a task with that reason).
 */
export function workQueuesFrom(
  config: ServiceConfig,
  sqs: SQSClient = new SQSClient({}),
): Record<WorkQueueName, SqsWorkQueue<unknown>> {
  const queues: Record<string, SqsWorkQueue<unknown>> = {};
  for (const queue of WORK_QUEUES) {
    if (DECISION_QUEUES.includes(queue.name)) continue;
    const url = config.string(queue.urlProperty);
    if (url === undefined) continue;
    const address = { name: queue.name, url, type: queue.type };
    queues[queue.name] = new SqsWorkQueue(sqs, address, randomIds, queue.what);
  }
  return queues;
}
