/**
 * A host's store bundle, built from the capabilities it is made of: each contributes its stores,
 * over memory, the embedded store or DynamoDB, and together they are `services.stores`. Table
 * names come from one derivation (tablePropertyName) on both sides: the CDK stack sets
 * `service.dynamodb.tables.<id>` for each table it grants, and the hosts read the same property
 * here, so no table name is spelt by hand. Nothing here loads a capability: the local host bundles
 * every one (lib/runtime/stores.ts), a Lambda function its own (lib/runtime/aws.ts).
 */
import type { AnyCapability, CapabilityStores } from '../capabilities.ts';
import type { StoreFactories } from '../capability-contract.ts';
import { ALL_TABLES } from '../catalog.ts';
import { ConfigError } from '../config/load.ts';
import type { ServiceConfig } from '../config/service-config.ts';
import type { DynamoSession } from '../store/dynamodb/index.ts';
import { type TableNames, type TableSpec, tablePropertyName } from '../store/dynamodb/tables.ts';

/** Every capability's stores, plus releasing what the backend holds. */
export type ServiceStores = CapabilityStores & {
  /** Releases connections and embedded servers; every acknowledged write is already durable. */
  close(): Promise<void>;
};

/** The stores of these capabilities, each built by `build` from its factories. */
export function storeBundle(
  capabilities: readonly AnyCapability[],
  build: (factories: StoreFactories<object>) => object,
  close: () => Promise<void>,
): ServiceStores {
  const stores: Record<string, unknown> = {};
  for (const capability of capabilities) {
    if (capability.stores) Object.assign(stores, build(capability.stores));
  }
  // Given every capability, the merge of their factories' output is CapabilityStores by
  // construction; given some, it holds theirs (what the functions made of them read).
  return { ...(stores as CapabilityStores), close };
}

export function memoryStoresOf(capabilities: readonly AnyCapability[]): ServiceStores {
  return storeBundle(
    capabilities,
    (factories) => factories.memory(),
    async () => {},
  );
}

export function dynamoStoresOf(
  capabilities: readonly AnyCapability[],
  session: DynamoSession,
  tables: TableNames,
): ServiceStores {
  return storeBundle(
    capabilities,
    (factories) => factories.dynamodb(session.doc, tables),
    () => session.close(),
  );
}

/** Names of the given tables: prefix + id unless named one by one. */
export function tableNamesFrom(
  prefix: string,
  explicit: Readonly<Record<string, string | undefined>> = {},
  specs: readonly TableSpec[] = ALL_TABLES,
): TableNames {
  return Object.fromEntries(specs.map((spec) => [spec.id, explicit[spec.id] ?? `${prefix}${spec.id}`]));
}

/**
 * Table names from the configuration: `service.dynamodb.tables.<id>` where set (on AWS, the
 * stack's generated names), else the prefix. A table property naming no table stops the start.
 */
export function tableNamesOf(config: ServiceConfig): TableNames {
  const known = new Set(ALL_TABLES.map(tablePropertyName));
  for (const [name] of config.entries()) {
    if (
      name.startsWith('service.dynamodb.tables.') &&
      !known.has(name as `service.dynamodb.tables.${string}`)
    ) {
      throw new ConfigError(
        `Property ${name} names no table; the tables are ${ALL_TABLES.map((t) => t.id).join(', ')}`,
      );
    }
  }
  const explicit = Object.fromEntries(
    ALL_TABLES.map((spec) => [spec.id, config.string(tablePropertyName(spec))]),
  );
  return tableNamesFrom(config.requireString('service.dynamodb.table-prefix'), explicit);
}

/** Creates any missing table of every capability (local host and tests; on AWS the stack does). */
export function ensureTables(session: DynamoSession, tables: TableNames): Promise<void> {
  return session.createTables(tables, ALL_TABLES);
}
