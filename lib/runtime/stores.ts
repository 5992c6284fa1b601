/**
 * The host's store bundle, built from the capabilities: each contributes its stores, over memory
 * or DynamoDB, and together they are `services.stores`. Table names come from one derivation
 * (tablePropertyName) on both sides: the CDK stack sets `service.dynamodb.tables.<id>` for each
 * table it grants, and the hosts read the same property here, so no table name is spelt by hand.
 */
import { CAPABILITIES, type CapabilityStores, TABLES } from '../capabilities.ts';
import { ConfigError } from '../config/load.ts';
import type { ServiceConfig } from '../config/service-config.ts';
import type { DynamoSession } from '../store/dynamodb/index.ts';
import { type TableNames, type TableSpec, tablePropertyName } from '../store/dynamodb/tables.ts';
import type { EmbeddedDb } from '../store/embedded/database.ts';
import { acknowledgedWhenDurable, embeddedSource } from '../store/embedded/index.ts';

/** Every capability's stores, plus releasing what the backend holds. */
export type ServiceStores = CapabilityStores & {
  /** Releases connections and embedded servers; every acknowledged write is already durable. */
  close(): Promise<void>;
};

export function createMemoryStores(): ServiceStores {
  return bundle(
    (factories) => factories.memory(),
    async () => {},
  );
}

export function createDynamoStores(session: DynamoSession, tables: TableNames): ServiceStores {
  return bundle(
    (factories) => factories.dynamodb(session.doc, tables),
    () => session.close(),
  );
}

/**
 * Every capability's stores over the embedded database (the local server's default): each call
 * answers once its writes are on disk; closing the stores closes the database.
 */
export function createEmbeddedStores(db: EmbeddedDb): ServiceStores {
  const source = embeddedSource(db);
  return acknowledgedWhenDurable(db, () =>
    bundle(
      (factories) => factories.embedded(source),
      () => db.close(),
    ),
  );
}

/** Names of the given tables: prefix + id unless named one by one. */
export function tableNamesFrom(
  prefix: string,
  explicit: Readonly<Record<string, string | undefined>> = {},
  specs: readonly TableSpec[] = TABLES,
): TableNames {
  return Object.fromEntries(specs.map((spec) => [spec.id, explicit[spec.id] ?? `${prefix}${spec.id}`]));
}

/**
 * Table names from the configuration: `service.dynamodb.tables.<id>` where set (on AWS, the
 * stack's generated names), else the prefix. A table property naming no table stops the start.
 */
export function tableNamesOf(config: ServiceConfig): TableNames {
  const known = new Set(TABLES.map(tablePropertyName));
  for (const [name] of config.entries()) {
    if (
      name.startsWith('service.dynamodb.tables.') &&
      !known.has(name as `service.dynamodb.tables.${string}`)
    ) {
      throw new ConfigError(
        `Property ${name} names no table; the tables are ${TABLES.map((t) => t.id).join(', ')}`,
      );
    }
  }
  const explicit = Object.fromEntries(
    TABLES.map((spec) => [spec.id, config.string(tablePropertyName(spec))]),
  );
  return tableNamesFrom(config.requireString('service.dynamodb.table-prefix'), explicit);
}

/** Creates any missing table of every capability (local host and tests; on AWS the stack does). */
export function ensureTables(session: DynamoSession, tables: TableNames): Promise<void> {
  return session.createTables(tables, TABLES);
}

type Factories = NonNullable<(typeof CAPABILITIES)[number]['stores']>;

function bundle(build: (factories: Factories) => object, close: () => Promise<void>): ServiceStores {
  const stores: Record<string, unknown> = {};
  for (const capability of CAPABILITIES) {
    if (capability.stores) Object.assign(stores, build(capability.stores));
  }
  // The merge of every capability's factory output is CapabilityStores by construction.
  return { ...(stores as CapabilityStores), close };
}
