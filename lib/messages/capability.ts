/**
 * The workflow message queue (docs/api.md "Events" 1-3), behind `service.workflow-message-queue.enabled`:
 * its push route over its own table. The route lies under /api/workflow, whose proxy the workflows
 * capability owns; its API Gateway route names the exact path, which API Gateway matches before the
 * greedy proxy, so pushes reach this function. PULL_WORKFLOW_MESSAGES reads the same store.
 */
import type { Capability, ServiceContext } from '../capability-contract.ts';
import { EXECUTIONS_TABLE, tableName } from '../store/dynamodb/tables.ts';
import type { MessageStores } from './ports.ts';
import { messageRoutes } from './routes.ts';
import { MessageService } from './service.ts';
import { DynamoMessageStore } from './store/dynamodb.ts';
import { MemoryMessageStore } from './store/memory.ts';
import { MESSAGES_TABLE } from './tables.ts';

/** The push service over a host's services: the same for the route and the event handlers' action. */
export function messageServiceOf(services: ServiceContext<MessageStores>): MessageService {
  return new MessageService({
    messages: services.stores.messages,
    executions: services.stores.executions,
    decisions: services.decisions,
    clock: services.clock,
    limits: {
      maxQueueSize: services.config.number('service.workflow-message-queue.maxQueueSize'),
      ttlSeconds: services.config.number('service.workflow-message-queue.ttlSeconds'),
    },
  });
}

export const messagesCapability: Capability<MessageStores> = {
  name: 'messages',
  gate: 'messageQueue',
  tables: [MESSAGES_TABLE],
  stores: {
    memory: () => ({ messages: new MemoryMessageStore() }),
    embedded: (source) => ({ messages: new MemoryMessageStore(source) }),
    dynamodb: (doc, tables) => ({ messages: new DynamoMessageStore(doc, tableName(tables, MESSAGES_TABLE)) }),
  },
  // PULL_WORKFLOW_MESSAGES reads the run's queue; a run's end (or removal) deletes it.
  engine: ({ stores, config }) => ({
    taskPorts: {
      messages: {
        messages: stores.messages,
        maxBatchSize: config.number('service.workflow-message-queue.maxBatchSize'),
      },
    },
    onRunEnded: (run) => stores.messages.deleteQueue(run.workflowId),
    onRunRemoved: (workflowId) => stores.messages.deleteQueue(workflowId),
  }),
  routes: (services) => messageRoutes(messageServiceOf(services)),
  apiRoutes: ['POST /api/workflow/{workflowId}/messages'],
  // Deciding functions read runs' message queues (PULL_WORKFLOW_MESSAGES) and delete them at a run's
  // end or removal.
  engineGrants: { decides: [{ table: MESSAGES_TABLE, access: 'readWrite' }] },
  grants: {
    // A push reads the run's status before and after adding the message.
    tables: [
      { table: MESSAGES_TABLE, access: 'readWrite' },
      { table: EXECUTIONS_TABLE, access: 'read' },
    ],
    // After a push the run is decided at once (a waiting pull resumes).
    sends: ['decisions'],
  },
};
