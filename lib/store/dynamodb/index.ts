/**
 * The DynamoDB bundle of stores, and table creation for hosts that own their tables (the local
 * server and tests; on AWS the CDK stack creates them).
 */
import {
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  type Projection,
  ResourceNotFoundException,
} from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Stores } from '../ports.ts';
import { DynamoTaskDefStore, DynamoWorkflowDefStore } from './definitions.ts';
import { DynamoExecutionStore } from './executions.ts';
import { DynamoPollDataStore, DynamoTaskQueue } from './queue.ts';
import { type IndexProjection, keyAttributeTypes, projectionOf, TABLES, type TableNames } from './tables.ts';

export function documentClient(client: DynamoDBClient): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertEmptyValues: false },
  });
}

export function tableNamesFrom(prefix: string, explicit: Partial<TableNames> = {}): TableNames {
  return {
    definitions: explicit.definitions ?? `${prefix}definitions`,
    executions: explicit.executions ?? `${prefix}executions`,
    queues: explicit.queues ?? `${prefix}queues`,
  };
}

export function createDynamoStores(
  client: DynamoDBClient,
  tables: TableNames,
  onClose?: () => Promise<void>,
): Stores {
  const doc = documentClient(client);
  return {
    workflowDefs: new DynamoWorkflowDefStore(doc, tables.definitions),
    taskDefs: new DynamoTaskDefStore(doc, tables.definitions),
    executions: new DynamoExecutionStore(doc, tables.executions),
    queue: new DynamoTaskQueue(doc, tables.queues),
    pollData: new DynamoPollDataStore(doc, tables.queues),
    close: async () => {
      client.destroy();
      await onClose?.();
    },
  };
}

/** Creates any missing table (on-demand, with its indexes) and waits until each is ACTIVE. */
export async function ensureTables(client: DynamoDBClient, tables: TableNames): Promise<void> {
  for (const spec of TABLES) {
    const name = tables[spec.id];
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
