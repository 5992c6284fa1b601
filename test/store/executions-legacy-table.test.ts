/**
 * A local data directory written by an earlier version: its executions table has no byCorrelation
 * index (dynalite cannot add an index to an existing table). Correlation lookups still find its
 * runs, through the byName index. Nor has it byTaskType: task search by type scans instead, nor
 * byStartDay: a time-window search scans. And a table on AWS whose indexes were added later holds
 * run items written before their keys existed: the one-off backfill sets them.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SearchService } from '../../lib/search/service.ts';
import { backfillSearchKeys } from '../../lib/store/dynamodb/backfill-search-keys.ts';
import { workflowItem } from '../../lib/store/dynamodb/execution-items.ts';
import { DynamoExecutionStore } from '../../lib/store/dynamodb/executions.ts';
import { createTables, documentClient } from '../../lib/store/dynamodb/index.ts';
import { EXECUTIONS_TABLE, type TableSpec } from '../../lib/store/dynamodb/tables.ts';
import { startTestDynamo, type TestDynamo } from '../helpers/dynamo.ts';
import { taskOf, workflowOf } from './executions.contract.ts';

let dynamo: TestDynamo;
beforeAll(async () => {
  dynamo = await startTestDynamo();
});
afterAll(async () => {
  await dynamo.close();
});

it('finds runs by correlation id in an executions table without the byCorrelation index', async () => {
  const legacy: TableSpec = {
    ...EXECUTIONS_TABLE,
    indexes: EXECUTIONS_TABLE.indexes.filter((index) => index.name !== 'byCorrelation'),
  };
  expect(legacy.indexes.length).toBe(EXECUTIONS_TABLE.indexes.length - 1);
  const name = `${dynamo.uniquePrefix()}executions`;
  await createTables(dynamo.admin, { [legacy.id]: name }, [legacy]);
  const store = new DynamoExecutionStore(documentClient(dynamo.admin), name);

  await store.createWorkflow(workflowOf('run-a', { workflowName: 'legacy', correlationId: 'order-1' }));
  await store.createWorkflow(workflowOf('run-b', { workflowName: 'legacy', correlationId: 'order-2' }));
  const found = await store.findWorkflows({ name: 'legacy', correlationId: 'order-1' });
  expect(found.map((run) => run.workflowId)).toEqual(['run-a']);
});

it('finds tasks by type in an executions table without the byTaskType index (a scan)', async () => {
  const legacy: TableSpec = {
    ...EXECUTIONS_TABLE,
    indexes: EXECUTIONS_TABLE.indexes.filter((index) => index.name !== 'byTaskType'),
  };
  const name = `${dynamo.uniquePrefix()}executions`;
  await createTables(dynamo.admin, { [legacy.id]: name }, [legacy]);
  const store = new DynamoExecutionStore(documentClient(dynamo.admin), name);

  await store.createWorkflow(workflowOf('run-t'));
  await store.createTasks([taskOf('run-t', 't-1', 1, { taskType: 'kind_a' }), taskOf('run-t', 't-2', 2)]);
  expect((await store.tasksOfTypes(['kind_a'])).map((t) => t.taskId)).toEqual(['t-1']);
});

const DAY = 86_400_000;
const T1 = 1_700_000_000_000;
/** Searches as of shortly after T1. */
const windowIds = async (store: DynamoExecutionStore, query: string) =>
  (
    await new SearchService(store, undefined, { now: () => T1 + DAY }).workflows({
      start: 0,
      size: 10,
      query,
      sort: 'startTime:ASC',
    })
  ).results.map((run) => run.workflowId);

it('finds runs by time window in an executions table without the byStartDay index (a scan)', async () => {
  const legacy: TableSpec = {
    ...EXECUTIONS_TABLE,
    indexes: EXECUTIONS_TABLE.indexes.filter((index) => index.name !== 'byStartDay'),
  };
  const name = `${dynamo.uniquePrefix()}executions`;
  await createTables(dynamo.admin, { [legacy.id]: name }, [legacy]);
  const store = new DynamoExecutionStore(documentClient(dynamo.admin), name);
  await store.createWorkflow(workflowOf('run-w', { createTime: T1 }));
  expect(await windowIds(store, `startTime>=${T1 - DAY}`)).toEqual(['run-w']);
});

it('backfills the search keys of runs written before them, once, so day and correlation reads find them', async () => {
  const name = `${dynamo.uniquePrefix()}executions`;
  await createTables(dynamo.admin, { [EXECUTIONS_TABLE.id]: name }, [EXECUTIONS_TABLE]);
  const doc = documentClient(dynamo.admin);
  const store = new DynamoExecutionStore(doc, name);
  await store.createWorkflow(
    workflowOf('run-new', { createTime: T1 + 1, workflowName: 'old', correlationId: 'c-1' }),
  );
  // As an earlier version wrote it: no startDay, no correlationKey.
  const {
    startDay: _day,
    correlationKey: _key,
    ...old
  } = workflowItem(workflowOf('run-old', { createTime: T1, workflowName: 'old', correlationId: 'c-1' }));
  await doc.send(new PutCommand({ TableName: name, Item: old }));

  // Both reads go through the indexes, which do not hold the old item yet.
  expect(await windowIds(store, `startTime>=${T1 - DAY}`)).toEqual(['run-new']);
  expect((await store.findWorkflows({ name: 'old', correlationId: 'c-1' })).map((r) => r.workflowId)).toEqual(
    ['run-new'],
  );

  expect(await backfillSearchKeys(doc, name)).toEqual({ found: 1, updated: 1 });
  expect(await windowIds(store, `startTime>=${T1 - DAY}`)).toEqual(['run-old', 'run-new']);
  expect((await store.findWorkflows({ name: 'old', correlationId: 'c-1' })).map((r) => r.workflowId)).toEqual(
    ['run-old', 'run-new'],
  );
  // The record itself is untouched, and a second run finds nothing left to do.
  expect((await store.getWorkflow('run-old'))?.rev).toBe(1);
  expect(await backfillSearchKeys(doc, name)).toEqual({ found: 0, updated: 0 });
});
