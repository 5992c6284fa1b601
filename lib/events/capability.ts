/**
 * The event handlers capability (`/api/event`, docs/conductor-compat.md §1.3 and §2.8): handler
 * definitions and their executions over one table, and the processor that carries out handlers
 * for incoming events (lib/events/processor.ts). Events reach it from EVENT tasks' `conductor:`
 * sinks and from `POST /api/event/handleIncomingEvent` (in process locally, the `events` queue and
 * its consumer on AWS; consumer.ts), and from the configured SQS and EventBridge sources
 * (lib/events/sources.ts).
 */
import type { Capability, ServiceContext } from '../capability-contract.ts';
import { messageServiceOf } from '../messages/capability.ts';
import type { MessageStores } from '../messages/ports.ts';
import type { EventMessage } from '../queue/work-queues.ts';
import { tableName } from '../store/dynamodb/tables.ts';
import { type EventDeps, eventHandlers } from './consumer.ts';
import type { EventStores } from './ports.ts';
import { EventProcessor } from './processor.ts';
import { eventRoutes } from './routes.ts';
import { EVENT_SOURCES } from './sources.ts';
import { DynamoEventExecutionStore } from './store/dynamodb-executions.ts';
import { DynamoEventHandlerStore } from './store/dynamodb-handlers.ts';
import { MemoryEventExecutionStore } from './store/memory-executions.ts';
import { MemoryEventHandlerStore } from './store/memory-handlers.ts';
import { EVENT_HANDLERS_TABLE } from './tables.ts';

/** The processor over a host's services: the same for the local queue, the consumer and the sources. */
export function eventProcessorOf(services: ServiceContext<EventStores>): EventProcessor {
  const { stores } = services;
  // The engine is asked for when an action runs, not before: the events route group, which
  // builds this too (its routes take what the capability provides), runs no engine.
  const engine = () => services.engine;
  // A host's stores hold every capability's, the message queues' among them.
  const messages = services.config.gate('messageQueue')
    ? messageServiceOf(services as ServiceContext<EventStores & MessageStores>)
    : undefined;
  return new EventProcessor({
    handlers: stores.eventHandlers,
    executions: stores.eventExecutions,
    scripts: services.scripts,
    clock: services.clock,
    logger: services.logger,
    executionTtlMs: services.config.number('service.events.execution-ttl-seconds') * 1000,
    actions: {
      parseStart: (body) => engine().starter.parseRequest(body),
      startRun: (request) => engine().starter.startRun(request),
      getWorkflow: (workflowId) => stores.executions.getWorkflow(workflowId),
      getTasks: (workflowId, taskIds) => stores.executions.getTasks(workflowId, taskIds),
      findTask: (taskId) => stores.executions.findTask(taskId),
      updateTask: (result) => engine().tasks.update(result),
      terminate: (workflowId, reason) => engine().operations.terminate(workflowId, reason),
      setVariables: (workflowId, variables) => engine().operations.setVariables(workflowId, variables),
      ...(messages ? { pushMessage: (workflowId, payload) => messages.push(workflowId, payload) } : {}),
    },
  });
}

export const eventsCapability: Capability<EventStores, EventDeps> = {
  name: 'events',
  tables: [EVENT_HANDLERS_TABLE],
  stores: {
    memory: () => ({
      eventHandlers: new MemoryEventHandlerStore(),
      eventExecutions: new MemoryEventExecutionStore(),
    }),
    embedded: (source) => ({
      eventHandlers: new MemoryEventHandlerStore(source),
      eventExecutions: new MemoryEventExecutionStore(source),
    }),
    dynamodb: (doc, tables) => ({
      eventHandlers: new DynamoEventHandlerStore(doc, tableName(tables, EVENT_HANDLERS_TABLE)),
      eventExecutions: new DynamoEventExecutionStore(doc, tableName(tables, EVENT_HANDLERS_TABLE)),
    }),
  },
  provides: (services) => {
    const processor = eventProcessorOf(services);
    return { handleEvent: async (message) => void (await processor.handle(message)) };
  },
  // conductor: events of EVENT tasks (in process locally, the events queue on AWS).
  consumers: [eventHandlers],
  // Outside SQS queues and EventBridge rules a deployment lists (`-c eventSources=...`).
  outsideSources: EVENT_SOURCES,
  routes: (services) =>
    eventRoutes(services.stores, services.clock, services.workQueues.of<EventMessage>('events')),
  apiRoutes: ['ANY /api/event', 'ANY /api/event/{proxy+}'],
  // POST /api/event/handleIncomingEvent hands its events to the consumer through the events queue.
  grants: { tables: [{ table: EVENT_HANDLERS_TABLE, access: 'readWrite' }], sends: ['events'] },
};
