/**
 * The schemas capability: the schema registry (`/api/schema`) in its own table. The registry one
 * host serves is shared with its engine (schemaRegistryOf), so a save or delete through the routes
 * invalidates the cache the enforcer reads.
 */
import type { Capability } from '../capability-contract.ts';
import type { ServiceConfig } from '../config/service-config.ts';
import type { Clock } from '../model/clock.ts';
import { tableName } from '../store/dynamodb/tables.ts';
import { RegistryEnforcer } from './enforcer.ts';
import type { SchemaStore } from './ports.ts';
import { schemaRoutes } from './routes.ts';
import { SchemaService } from './service.ts';
import { assertSchemaStorage } from './storage-check.ts';
import { DynamoSchemaStore } from './store/dynamodb.ts';
import { MemorySchemaStore } from './store/memory.ts';
import { SCHEMAS_TABLE } from './tables.ts';

export interface SchemaStores {
  schemas: SchemaStore;
}

const registries = new WeakMap<SchemaStore, SchemaService>();

/** The one registry (and cache) over a host's schema store: the routes and the enforcer share it. */
export function schemaRegistryOf(store: SchemaStore, clock: Clock, config: ServiceConfig): SchemaService {
  let registry = registries.get(store);
  if (!registry) {
    registry = new SchemaService(store, clock, {
      ttlMs: config.number('service.app.schema-cache.ttl'),
      maxSize: config.number('service.app.schema-cache.max-size'),
    });
    registries.set(store, registry);
  }
  return registry;
}

export const schemasCapability: Capability<SchemaStores> = {
  name: 'schemas',
  tables: [SCHEMAS_TABLE],
  stores: {
    memory: () => ({ schemas: new MemorySchemaStore() }),
    embedded: (source) => ({ schemas: new MemorySchemaStore(source) }),
    dynamodb: (doc, tables) => ({ schemas: new DynamoSchemaStore(doc, tableName(tables, SCHEMAS_TABLE)) }),
  },
  checkConfig: assertSchemaStorage,
  // Payloads cross their schemas through the registry the /api/schema routes serve (one cache).
  engine: ({ stores, clock, config }) => ({
    enforcer: new RegistryEnforcer(schemaRegistryOf(stores.schemas, clock, config)),
  }),
  routes: (services) =>
    schemaRoutes(schemaRegistryOf(services.stores.schemas, services.clock, services.config)),
  apiRoutes: ['ANY /api/schema', 'ANY /api/schema/{proxy+}'],
  grants: { tables: [{ table: SCHEMAS_TABLE, access: 'readWrite' }], sends: [] },
  // Every function that starts runs or applies results checks payloads against their schemas.
  engineGrants: { starts: [{ table: SCHEMAS_TABLE, access: 'read' }] },
};
