/**
 * The DynamoDB document client every adapter takes, and table creation for hosts that own their
 * tables (the local server and tests; on AWS the CDK stack creates them). Which stores exist is
 * decided by the capabilities (lib/runtime/stores.ts builds the bundle).
 */
import {
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  type Projection,
  ResourceNotFoundException,
} from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  type IndexProjection,
  keyAttributeTypes,
  projectionOf,
  type TableNames,
  type TableSpec,
  tableName,
} from './tables.ts';

export type DocumentClient = DynamoDBDocumentClient;

/**
 * A DynamoDB connection as the host's store bundle uses it (lib/runtime/stores.ts): the document
 * client every adapter takes, table creation, and closing the connection (and whatever embedded
 * server sits behind it). The SDK client stays inside this adapter.
 */
export interface DynamoSession {
  readonly doc: DocumentClient;
  createTables(tables: TableNames, specs: readonly TableSpec[]): Promise<void>;
  close(): Promise<void>;
}

export function dynamoSession(client: DynamoDBClient, onClose?: () => Promise<void>): DynamoSession {
  return {
    doc: documentClient(client),
    createTables: (tables, specs) => createTables(client, tables, specs),
    close: async () => {
      client.destroy();
      await onClose?.();
    },
  };
}

export function documentClient(client: DynamoDBClient): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertEmptyValues: false },
  });
}

/** Creates any missing table (on-demand, with its indexes) and waits until each is ACTIVE. */
export async function createTables(
  client: DynamoDBClient,
  tables: TableNames,
  specs: readonly TableSpec[],
): Promise<void> {
  for (const spec of specs) {
    const name = tableName(tables, spec);
    if (await exists(client, name)) continue;
    const localIndexes = spec.localIndexes ?? [];
    await client.send(
      new CreateTableCommand({
        TableName: name,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [...keyAttributeTypes(spec)].map(([attribute, type]) => ({
          AttributeName: attribute,
          AttributeType: type,
        })),
        KeySchema: [
          { AttributeName: spec.partitionKey, KeyType: 'HASH' },
          { AttributeName: spec.sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes:
          spec.indexes.length === 0
            ? undefined
            : spec.indexes.map((index) => ({
                IndexName: index.name,
                KeySchema: [
                  { AttributeName: index.partitionKey, KeyType: 'HASH' },
                  { AttributeName: index.sortKey, KeyType: 'RANGE' },
                ],
                Projection: projection(projectionOf(index)),
              })),
        // An LSI can only be created with its table; it shares the table's partition key.
        LocalSecondaryIndexes:
          localIndexes.length === 0
            ? undefined
            : localIndexes.map((index) => ({
                IndexName: index.name,
                KeySchema: [
                  { AttributeName: spec.partitionKey, KeyType: 'HASH' },
                  { AttributeName: index.sortKey, KeyType: 'RANGE' },
                ],
                Projection: projection(projectionOf(index)),
              })),
      }),
    );
    for (let i = 0; i < 100; i++) {
      const described = await client.send(new DescribeTableCommand({ TableName: name }));
      if (described.Table?.TableStatus === 'ACTIVE') break;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

function projection(spec: IndexProjection): Projection {
  return spec.type === 'INCLUDE'
    ? { ProjectionType: 'INCLUDE', NonKeyAttributes: spec.attributes ?? [] }
    : { ProjectionType: spec.type };
}

async function exists(client: DynamoDBClient, name: string): Promise<boolean> {
  try {
    await client.send(new DescribeTableCommand({ TableName: name }));
    return true;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return false;
    throw error;
  }
}
