/**
 * The event handlers' consumer: carries out the handlers of each event an EVENT task published to
 * a `conductor:` sink (lib/events/processor.ts), one message at a time (a slow action holds back
 * no other event). Each action is claimed by an id derived from the message, handler and action,
 * so a message delivered again runs nothing twice. Locally the local consumer host runs it over an
 * in-process work queue (lib/jobs/local-consumers.ts).
 */

import { MAX_RECEIVE_COUNT } from '../jobs/decision-consumers.ts';
import type { Consumer, Grants } from '../jobs/types.ts';
import { decodeEventMessage, type EventMessage } from '../queue/work-queues.ts';
import { DEFINITIONS_TABLE, EXECUTIONS_TABLE, QUEUES_TABLE } from '../store/dynamodb/tables.ts';
import { EVENT_HANDLERS_TABLE } from './tables.ts';

/**
 * What carrying out handlers touches: handlers and executions; runs and tasks (start, complete,
 * fail, terminate, variables) with their queue entries, definitions and schemas (starts); the
 * message queues (push); decides of the runs changed.
 */
export const EVENT_HANDLING_GRANTS: Grants = {
  tables: [
    { table: EVENT_HANDLERS_TABLE, access: 'readWrite' },
    { table: EXECUTIONS_TABLE, access: 'readWrite' },
    { table: QUEUES_TABLE, access: 'readWrite' },
    { table: DEFINITIONS_TABLE, access: 'read' },
  ],
  // Actions start runs, complete tasks and terminate runs (schemas, the runs' message queues), and
  // push messages into runs' queues (the message queue's table comes with deciding).
  engine: 'decides',
  sends: ['decisions', 'timers'],
  payloads: 'readWrite',
};

/** What the consumer works with (eventsCapability.provides): the handlers of one event carried out. */
export interface EventDeps {
  handleEvent(message: EventMessage): Promise<void>;
}

export const eventHandlers: Consumer<EventMessage, EventDeps> = {
  readsProvided: true,
  name: 'event-handlers',
  summary: 'carries out event handlers for conductor: events',
  queue: {
    name: 'events',
    urlProperty: 'service.aws.event-queue-url',
    what: 'event',
    type: 'standard',
    maxConcurrency: 10,
    // Events are sent undelayed and handled within seconds: five minutes is a backlog.
    oldestMessageAlarmSeconds: 300,
    batchSize: 10,
    maxReceiveCount: MAX_RECEIVE_COUNT,
    deadLetters: {
      output: 'EventDeadLetterQueueUrl',
      description: 'Events whose handlers failed repeatedly',
    },
  },
  decode: decodeEventMessage,
  // Two deliveries of one message in a batch: one after the other (the second finds it done).
  key: (message) => message.messageId,
  handle: (message, deps) => deps.handleEvent(message),
  // Ten events at once; a condition script may take 4 s, actions are store writes. The execution
  // lease (lib/events/processor.ts EXECUTION_LEASE_MS) is as long.
  timeoutSeconds: 90,
  scriptWorker: true,
  grants: EVENT_HANDLING_GRANTS,
};
