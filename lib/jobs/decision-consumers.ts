/**
 * The two consumers of the decision pipeline (lib/queue/sqs.ts):
 * - the decider consumes the FIFO `decisions` queue and decides each run it names. Runs are
 *   decided concurrently, and each run once however many of its messages a batch holds: a decide
 *   that starts after a message was sent reads everything that message announced;
 * - the timer consumer forwards due wake-ups from the standard `timers` queue to the FIFO queue (a
 *   FIFO queue has no per-message delay, and decides must go through it to stay one at a time).
 * Locally the local consumer host runs the decider over an in-process FIFO queue
 * (lib/jobs/local-consumers.ts); the timer does not run there: the local decision queue keeps one
 * in-process timer per run instead (lib/queue/local.ts).
 */

import type { DecisionMessage } from '../queue/work-queues.ts';
import { decodeDecisionMessage, mergeDecisionMessages } from '../queue/work-queues.ts';
import { DEFINITIONS_TABLE, EXECUTIONS_TABLE, QUEUES_TABLE } from '../store/dynamodb/tables.ts';
import { type Consumer, DELAYED_QUEUE_AGE_ALARM_SECONDS } from './types.ts';

/** SQS event sources hand Lambda at most 10 messages per batch from a FIFO queue. */
const BATCH_SIZE = 10;

/** Receives of one message before it moves to the dead-letter queue. */
export const MAX_RECEIVE_COUNT = 5;

export const decider: Consumer<DecisionMessage> = {
  name: 'decider',
  summary: 'consumes the decision queue',
  queue: {
    name: 'decisions',
    type: 'fifo',
    urlProperty: 'service.aws.decision-queue-url',
    batchSize: BATCH_SIZE,
    maxReceiveCount: MAX_RECEIVE_COUNT,
    // One decider per run at a time anyway (message group = run); this bounds how many runs at once.
    maxConcurrency: 50,
    // A decide normally starts within a second of its request: five minutes is a backlog.
    oldestMessageAlarmSeconds: 300,
    deadLetters: {
      output: 'DecisionDeadLetterQueueUrl',
      description: 'Decide requests that failed repeatedly',
    },
  },
  decode: decodeDecisionMessage,
  key: (message) => message.workflowId,
  coalesce: mergeDecisionMessages,
  // A failed decide reports every message of its run; one of them may reach the dead-letter queue
  // while the rest come back, so those that come back stand for every row, not just theirs.
  again: (message) => ({ workflowId: message.workflowId }),
  handle: (message, deps) => deps.decide(message.workflowId, message.taskIds),
  // Locally a failed decide is tried again a second later for as long as it takes: it must not leave
  // the run stuck, and no one watches a dead-letter queue there.
  local: { attempts: 'unbounded' },
  // A batch of up to 10 runs, decided concurrently; scripts alone may take 4 s each (evaluator.ts).
  timeoutSeconds: 60,
  // Every run progresses through decides: API bursts must not starve it (docs/operations.md).
  reserved: true,
  memorySize: 1024,
  scriptWorker: true,
  // Decides runs, so it writes runs and worker queues, reads definitions (sub-workflow and failure
  // workflow starts), evaluates scripts, and requests further decides and wake-ups.
  grants: {
    tables: [
      { table: DEFINITIONS_TABLE, access: 'read' },
      { table: EXECUTIONS_TABLE, access: 'readWrite' },
      { table: QUEUES_TABLE, access: 'readWrite' },
    ],
    // And what the capabilities ask of deciding functions: payloads cross their schemas,
    // PULL_WORKFLOW_MESSAGES reads the run's message queue, a run's end deletes it.
    engine: 'decides',
    // HTTP tasks the decides create go to the system-task queue, EVENT tasks' `conductor:`
    // messages to the events queue.
    sends: ['decisions', 'timers', 'system-tasks', 'events'],
    // Templating reads whole outputs; large task inputs and workflow outputs are stored.
    payloads: 'readWrite',
  },
};

export const timer: Consumer<DecisionMessage> = {
  name: 'timer',
  summary: 'forwards due wake-ups to the decision queue',
  queue: {
    name: 'timers',
    type: 'standard',
    urlProperty: 'service.aws.timer-queue-url',
    batchSize: BATCH_SIZE,
    maxReceiveCount: MAX_RECEIVE_COUNT,
    // Forwarding a wake-up is one SQS send: a few invocations keep up with thousands a second.
    maxConcurrency: 5,
    // Wake-ups are sent delayed by up to 15 minutes.
    oldestMessageAlarmSeconds: DELAYED_QUEUE_AGE_ALARM_SECONDS,
    deadLetters: { output: 'TimerDeadLetterQueueUrl', description: 'Wake-ups that could not be forwarded' },
  },
  decode: decodeDecisionMessage,
  key: (message) => message.workflowId,
  // Wake-ups name no rows: the forwarded request is a plain one.
  coalesce: mergeDecisionMessages,
  handle: (message, deps) => deps.decisions.request(message.workflowId),
  local: {
    standIn:
      'the local decision queue arms one in-process timer per run (lib/queue/local.ts); the timers ' +
      'queue exists because SQS delays a message at most 15 minutes and a Lambda keeps no timers',
  },
  // It only forwards messages.
  timeoutSeconds: 30,
  // Wake-ups (timeouts, WAIT deadlines, retry delays) reach the decider through it.
  reserved: true,
  grants: { tables: [], sends: ['decisions'] },
};
