/**
 * The event handlers capability (`/api/event`, reference/conductor.md §1.3 and §2.8): handler
 * definitions over their own table. Carrying out the actions (EVENT task, sources) is still to come.
 */
import type { Capability } from '../capability.ts';
import { DynamoEventHandlerStore, EVENT_HANDLERS_TABLE } from '../store/dynamodb/event-handlers.ts';
import { tableName } from '../store/dynamodb/tables.ts';
import { MemoryEventHandlerStore } from '../store/memory/event-handlers.ts';
import type { EventStores } from './ports.ts';
import { eventRoutes } from './routes.ts';

export const eventsCapability: Capability<EventStores> = {
  name: 'events',
  tables: [EVENT_HANDLERS_TABLE],
  stores: {
    memory: () => ({ eventHandlers: new MemoryEventHandlerStore() }),
    dynamodb: (doc, tables) => ({
      eventHandlers: new DynamoEventHandlerStore(doc, tableName(tables, EVENT_HANDLERS_TABLE)),
    }),
  },
  routes: (services) => eventRoutes(services.stores.eventHandlers),
  apiRoutes: ['ANY /api/event', 'ANY /api/event/{proxy+}'],
  grants: { tables: [{ table: EVENT_HANDLERS_TABLE, access: 'readWrite' }], sends: [] },
};
