/**
 * Table creation for hosts that own their tables (local server, tests): the created table matches
 * the key design in tables.ts, and creating again is harmless.
 */
import {
  DescribeTableCommand,
  type GlobalSecondaryIndexDescription,
  type LocalSecondaryIndexDescription,
} from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TABLES } from '../../lib/capabilities.ts';
import { ensureTables, tableNamesFrom } from '../../lib/runtime/store-bundle.ts';
import { dynamoSession } from '../../lib/store/dynamodb/index.ts';
import type { IndexProjection } from '../../lib/store/dynamodb/tables.ts';
import { startTestDynamo, type TestDynamo } from '../helpers/dynamo.ts';

type IndexDescription = GlobalSecondaryIndexDescription | LocalSecondaryIndexDescription;

let dynamo: TestDynamo | undefined;

beforeAll(async () => {
  dynamo = await startTestDynamo();
});

afterAll(async () => {
  await dynamo?.close();
});

function server(): TestDynamo {
  if (!dynamo) throw new Error('dynalite did not start');
  return dynamo;
}

describe('tableNamesFrom', () => {
  it('prefixes the logical table name', () => {
    expect(tableNamesFrom('conductor-').definitions).toBe('conductor-definitions');
  });

  it('prefers an explicitly named table over the prefix', () => {
    expect(tableNamesFrom('conductor-', { definitions: 'my-defs' }).definitions).toBe('my-defs');
  });

  it('names every table of tables.ts, each one independently', () => {
    expect(tableNamesFrom('c-', { queues: 'my-queues' })).toEqual({
      definitions: 'c-definitions',
      executions: 'c-executions',
      queues: 'my-queues',
      schemas: 'c-schemas',
      schedules: 'c-schedules',
      messages: 'c-messages',
      eventhandlers: 'c-eventhandlers',
      filerecords: 'c-filerecords',
      applications: 'c-applications',
    });
  });
});

describe('ensureTables', () => {
  it.each(TABLES.map((spec) => [spec.id, spec] as const))(
    'creates the %s table, active and on demand, with the keys and indexes of tables.ts',
    async (id, spec) => {
      const tables = tableNamesFrom(server().uniquePrefix());

      await ensureTables(dynamoSession(server().admin), tables);

      const { Table } = await server().admin.send(new DescribeTableCommand({ TableName: tables[id] }));
      expect(Table?.TableStatus).toBe('ACTIVE');
      expect(Table?.BillingModeSummary?.BillingMode).toBe('PAY_PER_REQUEST');
      expect(Table?.KeySchema).toEqual([
        { AttributeName: spec.partitionKey, KeyType: 'HASH' },
        { AttributeName: spec.sortKey, KeyType: 'RANGE' },
      ]);
      const described = (list: IndexDescription[] | undefined) =>
        [...(list ?? [])]
          .sort((a, b) => String(a.IndexName).localeCompare(String(b.IndexName)))
          .map((index) => ({
            name: index.IndexName,
            keys: index.KeySchema,
            projection: index.Projection?.ProjectionType,
            included: [...(index.Projection?.NonKeyAttributes ?? [])].sort(),
          }));
      const expected = (
        name: string,
        keys: { AttributeName: string; KeyType: string }[],
        p?: IndexProjection,
      ) => ({
        name,
        keys,
        projection: p?.type ?? 'ALL',
        included: [...(p?.attributes ?? [])].sort(),
      });
      const sortedSpecs = <T extends { name: string }>(list: readonly T[]) =>
        [...list].sort((a, b) => a.name.localeCompare(b.name));
      expect(described(Table?.GlobalSecondaryIndexes)).toEqual(
        sortedSpecs(spec.indexes).map((index) =>
          expected(
            index.name,
            [
              { AttributeName: index.partitionKey, KeyType: 'HASH' },
              { AttributeName: index.sortKey, KeyType: 'RANGE' },
            ],
            index.projection,
          ),
        ),
      );
      expect(described(Table?.LocalSecondaryIndexes)).toEqual(
        sortedSpecs(spec.localIndexes ?? []).map((index) =>
          expected(
            index.name,
            [
              { AttributeName: spec.partitionKey, KeyType: 'HASH' },
              { AttributeName: index.sortKey, KeyType: 'RANGE' },
            ],
            index.projection,
          ),
        ),
      );
      const types = Object.fromEntries(
        (Table?.AttributeDefinitions ?? []).map((a) => [a.AttributeName, a.AttributeType]),
      );
      for (const index of [...spec.indexes, ...(spec.localIndexes ?? [])]) {
        expect(types[index.sortKey], `${index.name} sort key type`).toBe(index.sortKeyType ?? 'S');
      }
    },
  );

  it('declares number sort keys for the time-ordered execution indexes', () => {
    const executions = TABLES.find((t) => t.id === 'executions');
    expect(executions?.indexes.filter((i) => i.sortKeyType === 'N').map((i) => i.name)).toEqual([
      'byName',
      'byCorrelation',
      'byStartDay',
      'byTaskType',
      'wakeups',
    ]);
  });

  it('gives the definitions table the gsi1 listing index', () => {
    const definitions = TABLES.find((t) => t.id === 'definitions');
    expect(definitions?.indexes).toContainEqual({ name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' });
  });

  it('leaves existing tables and their items alone when called again', async () => {
    const { stores, tables, cleanup } = await server().freshStores();
    try {
      await stores.taskDefs.put({
        name: 'kept',
        retryCount: 0,
        retryLogic: 'FIXED',
        retryDelaySeconds: 0,
        backoffScaleFactor: 1,
        timeoutSeconds: 0,
        timeoutPolicy: 'TIME_OUT_WF',
        responseTimeoutSeconds: 1,
      });

      await ensureTables(dynamoSession(server().admin), tables);

      expect((await stores.taskDefs.get('kept'))?.name).toBe('kept');
    } finally {
      await cleanup();
    }
  });
});
