/**
 * The consumer of schedule fires (gate `scheduler`): each message, delivered at its scheduled
 * second by the queue's delay, starts the schedule's workflow once and records the execution
 * (lib/scheduler/dispatcher.ts `fire`). Fires are independent: no key, no coalescing.
 */
import { MAX_RECEIVE_COUNT } from '../jobs/decision-consumers.ts';
import { type Consumer, DELAYED_QUEUE_AGE_ALARM_SECONDS } from '../jobs/types.ts';
import { DEFINITIONS_TABLE, EXECUTIONS_TABLE, QUEUES_TABLE } from '../store/dynamodb/tables.ts';
import { decodeScheduleFireMessage, type ScheduleFireMessage } from './fire-message.ts';
import type { SchedulerDeps } from './schedule-tick.ts';
import { SCHEDULES_TABLE } from './tables.ts';

export const scheduleFire: Consumer<ScheduleFireMessage, SchedulerDeps> = {
  readsProvided: true,
  name: 'schedule-fire',
  summary: 'starts scheduled workflows at their second and records the executions',
  gate: 'scheduler',
  queue: {
    name: 'schedules',
    urlProperty: 'service.aws.schedule-queue-url',
    what: 'schedule fire',
    type: 'standard',
    batchSize: 10,
    maxReceiveCount: MAX_RECEIVE_COUNT,
    maxConcurrency: 10,
    // Fires are sent delayed to their second, up to 15 minutes ahead.
    oldestMessageAlarmSeconds: DELAYED_QUEUE_AGE_ALARM_SECONDS,
    deadLetters: {
      output: 'ScheduleDeadLetterQueueUrl',
      description: 'Schedule fires that failed repeatedly',
    },
  },
  decode: decodeScheduleFireMessage,
  key: () => undefined,
  handle: async (message, deps) => {
    await deps.scheduler.fire(message);
  },
  // Up to ten starts, each a definition read and a run write or two.
  timeoutSeconds: 60,
  grants: {
    // Starting a run reads its definition, writes the run; the execution record lives with the schedule.
    tables: [
      { table: SCHEDULES_TABLE, access: 'readWrite' },
      { table: DEFINITIONS_TABLE, access: 'read' },
      { table: EXECUTIONS_TABLE, access: 'readWrite' },
      { table: QUEUES_TABLE, access: 'readWrite' },
    ],
    // The new run's first decide.
    sends: ['decisions'],
    // A large start input is stored externally.
    payloads: 'readWrite',
    // It starts runs: what the capabilities ask of starting functions (a workflow whose input schema
    // is enforced reads its schema at start).
    engine: 'starts',
  },
};
