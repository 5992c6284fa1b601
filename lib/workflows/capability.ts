/**
 * The workflows capability: starting runs and the workflow API (`/api/workflow`), over the
 * executions table that the engine writes.
 */
import type { Capability } from '../capability.ts';
import { workflowSearchRoutes } from '../search/routes.ts';
import { searchServiceOf } from '../search/service.ts';
import { DynamoExecutionStore } from '../store/dynamodb/executions.ts';
import { MESSAGES_TABLE } from '../store/dynamodb/messages.ts';
import { SCHEMAS_TABLE } from '../store/dynamodb/schemas.ts';
import { DEFINITIONS_TABLE, EXECUTIONS_TABLE, QUEUES_TABLE, tableName } from '../store/dynamodb/tables.ts';
import { EmbeddedExecutionStore } from '../store/embedded/executions.ts';
import { MemoryExecutionStore } from '../store/memory/executions.ts';
import type { ExecutionStore } from '../store/ports.ts';
import { workflowRoutes } from './routes/index.ts';

export interface WorkflowStores {
  executions: ExecutionStore;
}

export const workflowsCapability: Capability<WorkflowStores> = {
  name: 'workflows',
  tables: [EXECUTIONS_TABLE],
  stores: {
    memory: () => ({ executions: new MemoryExecutionStore() }),
    embedded: (source) => ({ executions: new EmbeddedExecutionStore(source.db) }),
    dynamodb: (doc, tables) => ({
      executions: new DynamoExecutionStore(doc, tableName(tables, EXECUTIONS_TABLE)),
    }),
  },
  routes: (services) => [
    ...workflowSearchRoutes(searchServiceOf(services)),
    ...workflowRoutes(services.engine),
  ],
  apiRoutes: ['ANY /api/workflow', 'ANY /api/workflow/{proxy+}'],
  grants: {
    // Starting a run reads its definition and writes the run, its first tasks and their queue entries.
    tables: [
      { table: DEFINITIONS_TABLE, access: 'read' },
      { table: EXECUTIONS_TABLE, access: 'readWrite' },
      { table: QUEUES_TABLE, access: 'readWrite' },
      // Payloads are checked against their schemas (lib/schemas).
      { table: SCHEMAS_TABLE, access: 'read' },
      // Sync execute decides (PULL_WORKFLOW_MESSAGES reads the queue); a removed run's queue goes.
      { table: MESSAGES_TABLE, access: 'readWrite' },
    ],
    // Starts and the decide endpoint request decides now; operations that decide inside the request
    // (sync execute) go through the executor, which arms the run's next wake-up after each commit,
    // hands the HTTP tasks its decides create to the system-task queue, and sends EVENT tasks'
    // conductor: messages to the events queue.
    sends: ['decisions', 'timers', 'system-tasks', 'events'],
    // Runs read back whole, large starts stored, and presigned payload URLs signed by this role.
    payloads: 'readWrite',
    // With searchBackend=opensearch, workflow search answers from the collection (read only).
    search: 'read',
  },
};
