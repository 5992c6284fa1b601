/**
 * The whole service's store bundle: every capability's stores over memory, the embedded store or
 * DynamoDB (lib/runtime/store-bundle.ts folds them), for the local host, tests and benchmarks.
 */
import { CAPABILITIES } from '../capabilities.ts';
import type { DynamoSession } from '../store/dynamodb/index.ts';
import type { TableNames } from '../store/dynamodb/tables.ts';
import type { EmbeddedDb } from '../store/embedded/database.ts';
import { acknowledgedWhenDurable, embeddedSource } from '../store/embedded/index.ts';
import { dynamoStoresOf, memoryStoresOf, type ServiceStores, storeBundle } from './store-bundle.ts';

export function createMemoryStores(): ServiceStores {
  return memoryStoresOf(CAPABILITIES);
}

export function createDynamoStores(session: DynamoSession, tables: TableNames): ServiceStores {
  return dynamoStoresOf(CAPABILITIES, session, tables);
}

/**
 * Every capability's stores over the embedded database (the local server's default): each call
 * answers once its writes are on disk; closing the stores closes the database.
 */
export function createEmbeddedStores(db: EmbeddedDb): ServiceStores {
  const source = embeddedSource(db);
  return acknowledgedWhenDurable(db, () =>
    storeBundle(
      CAPABILITIES,
      (factories) => factories.embedded(source),
      () => db.close(),
    ),
  );
}
