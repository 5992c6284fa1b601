/**
 * An in-process, in-memory dynalite for the DynamoDB contract runs. One server per test file
 * (started in beforeAll, closed in afterAll); every `freshStores()` call creates its own tables under
 * a unique prefix, so tests never see each other's items.
 */
import { DeleteTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll } from 'vitest';
import { ensureTables, type ServiceStores, tableNamesFrom } from '../../lib/runtime/store-bundle.ts';
import { createDynamoStores } from '../../lib/runtime/stores.ts';
import { type EmbeddedDynamo, startEmbeddedDynamo } from '../../lib/store/dynamodb/embedded.ts';
import { DynamoExecutionStore } from '../../lib/store/dynamodb/executions.ts';
import { createTables, documentClient, dynamoSession } from '../../lib/store/dynamodb/index.ts';
import type { Item } from '../../lib/store/dynamodb/paging.ts';
import { EXECUTIONS_TABLE, type TableNames } from '../../lib/store/dynamodb/tables.ts';

export interface FreshStores {
  stores: ServiceStores;
  tables: TableNames;
  /** The server's admin client, for direct reads of the stored items (closed with the server). */
  admin: DynamoDBClient;
  /** Drops the tables and closes the stores' client. */
  cleanup(): Promise<void>;
}

export interface TestDynamo {
  endpoint: string;
  /** A client for direct table operations in tests; closed with the server. */
  admin: DynamoDBClient;
  /** Stores on newly created tables with a prefix no other test uses. */
  freshStores(): Promise<FreshStores>;
  /** A table prefix no other call in this process returns (DynamoDB names allow [a-zA-Z0-9_.-]). */
  uniquePrefix(): string;
  close(): Promise<void>;
}

let sequence = 0;

export async function startTestDynamo(): Promise<TestDynamo> {
  const embedded: EmbeddedDynamo = await startEmbeddedDynamo();
  const admin = embedded.client();
  const uniquePrefix = () => {
    sequence += 1;
    return `t${process.pid}-${Date.now().toString(36)}-${sequence}-`;
  };

  return {
    endpoint: embedded.endpoint,
    admin,
    uniquePrefix,
    async freshStores() {
      const tables = tableNamesFrom(uniquePrefix());
      await ensureTables(dynamoSession(admin), tables);
      // Each bundle gets its own client, because Stores.close() destroys the client it was given.
      const stores = createDynamoStores(dynamoSession(embedded.client()), tables);
      return {
        stores,
        tables,
        admin,
        async cleanup() {
          await stores.close();
          for (const name of Object.values(tables)) {
            await admin.send(new DeleteTableCommand({ TableName: name }));
          }
        },
      };
    },
    async close() {
      admin.destroy();
      await embedded.close();
    },
  };
}

/**
 * Runs a store contract suite against the DynamoDB adapters, over a dynalite started before the
 * calling file's tests and closed after them; each test gets its own tables.
 */
export function runOnDynalite(contract: (name: string, factory: () => Promise<FreshStores>) => void): void {
  let dynamo: TestDynamo | undefined;
  beforeAll(async () => {
    dynamo = await startTestDynamo();
  });
  afterAll(async () => {
    await dynamo?.close();
  });
  contract('DynamoDB (dynalite)', async () => {
    if (!dynamo) throw new Error('dynalite did not start');
    return dynamo.freshStores();
  });
}

/** A dynalite for the calling file's tests (started before them, closed after); call it at the top level. */
export function useTestDynamo(): () => TestDynamo {
  let dynamo: TestDynamo | undefined;
  beforeAll(async () => {
    dynamo = await startTestDynamo();
  });
  afterAll(async () => {
    await dynamo?.close();
  });
  return () => {
    if (!dynamo) throw new Error('dynalite did not start');
    return dynamo;
  };
}

export interface ExecutionsTable {
  name: string;
  client: DynamoDBDocumentClient;
  /** An item as stored, read consistently by its key. */
  raw(key: Record<string, string>): Promise<Item | undefined>;
  /** The entries of one index key (`attribute` = `value`), as the index holds them. */
  indexed(index: string, attribute: string, value: string): Promise<Item[]>;
  /** A new adapter over the table: a process that has seen nothing yet. */
  store(): DynamoExecutionStore;
}

/** An executions table of its own, for tests that look at the items the adapter writes. */
export async function freshExecutionsTable(dynamo: TestDynamo): Promise<ExecutionsTable> {
  const name = `${dynamo.uniquePrefix()}executions`;
  await createTables(dynamo.admin, { [EXECUTIONS_TABLE.id]: name }, [EXECUTIONS_TABLE]);
  const client = documentClient(dynamo.admin);
  return {
    name,
    client,
    raw: async (key) =>
      (await client.send(new GetCommand({ TableName: name, Key: key, ConsistentRead: true }))).Item,
    indexed: async (index, attribute, value) =>
      (
        await client.send(
          new QueryCommand({
            TableName: name,
            IndexName: index,
            KeyConditionExpression: '#key = :value',
            ExpressionAttributeNames: { '#key': attribute },
            ExpressionAttributeValues: { ':value': value },
          }),
        )
      ).Items ?? [],
    store: () => new DynamoExecutionStore(client, name),
  };
}
