/**
 * Every table and every work queue of the service, as plain data: what a host needs to check a
 * table's property or reach a queue without loading the capabilities that own them. A Lambda
 * function loads only the capabilities it is made of (functions/, lib/runtime/aws.ts), yet reads
 * every table property and may send to every queue. The same tables and queues as the capability
 * list declares (TABLES and CONSUMERS in lib/capabilities.ts): test/runtime/capabilities.test.ts
 * checks that they agree, so a new table or queue is added here too.
 */
import { APPLICATIONS_TABLE } from './applications/tables.ts';
import type { PropertyName } from './config/properties.ts';
import { eventHandlers } from './events/consumer.ts';
import { EVENT_HANDLERS_TABLE } from './events/tables.ts';
import { FILES_TABLE } from './files/tables.ts';
import { decider, timer } from './jobs/decision-consumers.ts';
import { systemTasks } from './jobs/system-tasks.ts';
import type { QueueSpec } from './jobs/types.ts';
import { MESSAGES_TABLE } from './messages/tables.ts';
import { scheduleFire } from './scheduler/schedule-fire.ts';
import { SCHEDULES_TABLE } from './scheduler/tables.ts';
import { SCHEMAS_TABLE } from './schemas/tables.ts';
import {
  DEFINITIONS_TABLE,
  EXECUTIONS_TABLE,
  QUEUES_TABLE,
  type TableSpec,
} from './store/dynamodb/tables.ts';

/** Every table some capability declares. */
export const ALL_TABLES: readonly TableSpec[] = [
  DEFINITIONS_TABLE,
  EXECUTIONS_TABLE,
  QUEUES_TABLE,
  SCHEMAS_TABLE,
  SCHEDULES_TABLE,
  MESSAGES_TABLE,
  EVENT_HANDLERS_TABLE,
  FILES_TABLE,
  APPLICATIONS_TABLE,
];

/** Every work queue, as its consumer declares it. */
export const WORK_QUEUES: readonly QueueSpec[] = [
  decider.queue,
  timer.queue,
  systemTasks.queue,
  scheduleFire.queue,
  eventHandlers.queue,
];

/** The property that tells a function the URL of the queue of this name (its consumer declares it). */
export function queueUrlProperty(name: string): PropertyName {
  const queue = WORK_QUEUES.find((q) => q.name === name);
  if (queue === undefined) throw new Error(`No consumer declares a '${name}' queue`);
  return queue.urlProperty;
}

/** Every queue's URL property, by queue name. */
export function queueUrlProperties(): ReadonlyMap<string, PropertyName> {
  return new Map(WORK_QUEUES.map((q) => [q.name, q.urlProperty]));
}
