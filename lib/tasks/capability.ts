/**
 * The tasks capability: the worker-facing task API (`/api/tasks`: poll, update, logs, queues),
 * over the queues table of worker task queues and poll data.
 */
import type { Capability } from '../capability-contract.ts';
import { taskSearchRoutes } from '../search/routes.ts';
import { searchServiceOf } from '../search/service.ts';
import { DynamoPollLimitStore } from '../store/dynamodb/poll-limits.ts';
import { DynamoPollDataStore, DynamoTaskQueue } from '../store/dynamodb/queue.ts';
import { EXECUTIONS_TABLE, QUEUES_TABLE, tableName } from '../store/dynamodb/tables.ts';
import { MemoryPollLimitStore } from '../store/memory/poll-limits.ts';
import { MemoryPollDataStore, MemoryTaskQueue } from '../store/memory/queue.ts';
import type { PollDataStore, PollLimitStore, TaskQueue } from '../store/ports.ts';
import { retainingPollData } from './poll-data-retention.ts';
import { taskRoutes } from './routes/index.ts';

export interface TaskStores {
  queue: TaskQueue;
  pollData: PollDataStore;
  /** concurrentExecLimit and rateLimitPerFrequency, held in the store across processes. */
  limits: PollLimitStore;
}

export const tasksCapability: Capability<TaskStores> = {
  name: 'tasks',
  tables: [QUEUES_TABLE],
  stores: {
    memory: () => ({
      queue: new MemoryTaskQueue(),
      pollData: new MemoryPollDataStore(),
      limits: new MemoryPollLimitStore(),
    }),
    embedded: (source) => ({
      queue: new MemoryTaskQueue(source),
      pollData: new MemoryPollDataStore(source),
      limits: new MemoryPollLimitStore(source),
    }),
    dynamodb: (doc, tables) => ({
      queue: new DynamoTaskQueue(doc, tableName(tables, QUEUES_TABLE)),
      pollData: new DynamoPollDataStore(doc, tableName(tables, QUEUES_TABLE)),
      limits: new DynamoPollLimitStore(doc, tableName(tables, QUEUES_TABLE)),
    }),
  },
  // A worker's last poll is forgotten after its retention, for every reader.
  decorate: ({ pollData }, { config, clock }) => ({
    pollData: retainingPollData(pollData, config.number('service.task.poll-data-retention'), clock),
  }),
  routes: (services) => [...taskSearchRoutes(searchServiceOf(services)), ...taskRoutes(services.engine)],
  apiRoutes: ['ANY /api/tasks', 'ANY /api/tasks/{proxy+}'],
  grants: {
    // Polls claim queue entries and task rows; updates write task rows and re-queue retries.
    tables: [
      { table: EXECUTIONS_TABLE, access: 'readWrite' },
      { table: QUEUES_TABLE, access: 'readWrite' },
    ],
    // Worker outputs cross their schemas (what the schema registry asks of such functions).
    engine: 'starts',
    // A task update requests a decide now; a callbackAfterSeconds arms a later one.
    sends: ['decisions', 'timers'],
    // Polls hand out whole inputs; large worker outputs are stored (and their URLs signed).
    payloads: 'readWrite',
    // With searchBackend=opensearch, task search answers from the collection (read only).
    search: 'read',
  },
};
