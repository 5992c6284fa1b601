/**
 * A local data directory written by an earlier version: its executions table has no byCorrelation
 * index (dynalite cannot add an index to an existing table). Correlation lookups still find its
 * runs, through the byName index. Nor has it byTaskType: task search by type scans instead.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
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
