/**
 * The metadata capability: workflow and task definitions (`/api/metadata`), kept in the
 * definitions table.
 */
import type { Capability } from '../capability-contract.ts';
import { DynamoTaskDefStore, DynamoWorkflowDefStore } from '../store/dynamodb/definitions.ts';
import { DEFINITIONS_TABLE, tableName } from '../store/dynamodb/tables.ts';
import { MemoryTaskDefStore, MemoryWorkflowDefStore } from '../store/memory/definitions.ts';
import type { TaskDefStore, WorkflowDefStore } from '../store/ports.ts';
import { metadataRoutes } from './routes/index.ts';

export interface MetadataStores {
  workflowDefs: WorkflowDefStore;
  taskDefs: TaskDefStore;
}

export const metadataCapability: Capability<MetadataStores> = {
  name: 'metadata',
  tables: [DEFINITIONS_TABLE],
  stores: {
    memory: () => ({ workflowDefs: new MemoryWorkflowDefStore(), taskDefs: new MemoryTaskDefStore() }),
    embedded: (source) => ({
      workflowDefs: new MemoryWorkflowDefStore(source),
      taskDefs: new MemoryTaskDefStore(source),
    }),
    dynamodb: (doc, tables) => ({
      workflowDefs: new DynamoWorkflowDefStore(doc, tableName(tables, DEFINITIONS_TABLE)),
      taskDefs: new DynamoTaskDefStore(doc, tableName(tables, DEFINITIONS_TABLE)),
    }),
  },
  routes: (services) => metadataRoutes(services.metadata),
  apiRoutes: ['ANY /api/metadata/{proxy+}'],
  grants: { tables: [{ table: DEFINITIONS_TABLE, access: 'readWrite' }], sends: [] },
};
