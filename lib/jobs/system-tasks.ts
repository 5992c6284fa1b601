/**
 * The system-task consumer: carries out the async system tasks a decide handed off (HTTP), one
 * message per task, each on its own (a slow endpoint holds back no other task), and reports the
 * result to the task row and asks for a decide (lib/engine/system-tasks.ts). A message handled
 * twice finds its task over and does nothing. Locally the local consumer host runs it over an
 * in-process queue, at most `service.http-task.concurrency` at once (lib/jobs/local-consumers.ts).
 */
import { decodeSystemTaskMessage, type SystemTaskMessage } from '../queue/work-queues.ts';
import { EXECUTIONS_TABLE } from '../store/dynamodb/tables.ts';
import { MAX_RECEIVE_COUNT } from './decision-consumers.ts';
import { type Consumer, DELAYED_QUEUE_AGE_ALARM_SECONDS } from './types.ts';

export const systemTasks: Consumer<SystemTaskMessage> = {
  name: 'system-tasks',
  summary: 'carries out HTTP tasks off the decider',
  queue: {
    name: 'system-tasks',
    type: 'standard',
    urlProperty: 'service.aws.system-task-queue-url',
    batchSize: 10,
    maxReceiveCount: MAX_RECEIVE_COUNT,
    maxConcurrency: 20,
    // A retried HTTP task's message is held back by its retry delay (up to 15 minutes).
    oldestMessageAlarmSeconds: DELAYED_QUEUE_AGE_ALARM_SECONDS,
    deadLetters: {
      output: 'SystemTaskDeadLetterQueueUrl',
      description: 'System tasks (HTTP) whose result could not be recorded',
    },
  },
  decode: decodeSystemTaskMessage,
  key: () => undefined,
  handle: (message, deps) => deps.runSystemTask(message),
  // Locally a burst of slow endpoints must not open unbounded sockets: at most this many at once.
  local: { concurrency: 'service.http-task.concurrency' },
  // Ten requests at once, each bounded by its connect + read timeouts (at most 50 s each).
  timeoutSeconds: 120,
  // Reads and writes task rows (and reads the run), asks for decides of the runs.
  grants: {
    tables: [{ table: EXECUTIONS_TABLE, access: 'readWrite' }],
    sends: ['decisions', 'timers'],
    payloads: 'readWrite',
  },
};
