/**
 * Definition snapshots on DynamoDB (lib/store/dynamodb/snapshots.ts): a run's item names its
 * definition by hash and a task row its workflow task, each stored once; a process that never saw
 * them (a cold function) reads them back; and items written before snapshots still read.
 */

import { PutCommand, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { expect, it } from 'vitest';
import {
  bodyJson as storedJson,
  taskItem,
  taskKey,
  workflowItem,
  workflowKey,
} from '../../lib/store/dynamodb/execution-items.ts';
import { SNAPSHOT_PREFIX } from '../../lib/store/dynamodb/snapshots.ts';
import { freshExecutionsTable, useTestDynamo } from '../helpers/dynamo.ts';
import { workflowDefOf } from './definitions.contract.ts';
import { taskOf, workflowOf } from './executions.contract.ts';

const dynamo = useTestDynamo();

async function freshTable() {
  const table = await freshExecutionsTable(dynamo());
  const snapshotCount = async () =>
    ((await table.client.send(new ScanCommand({ TableName: table.name }))).Items ?? []).filter((item) =>
      String(item.pk).startsWith(SNAPSHOT_PREFIX),
    ).length;
  return { ...table, snapshotCount };
}

/** A stored item's JSON body, inflated when it was stored deflated. */
function bodyJson(item: Record<string, unknown> | undefined): string {
  if (!item) throw new Error('no such item');
  return storedJson(item);
}

const bigDefinition = workflowDefOf('order_flow', 1, {
  description: 'x'.repeat(2000),
  inputParameters: ['orderId', 'lines'],
});

it('stores a run without its definition, naming one snapshot that every run of it shares', async () => {
  const t = await freshTable();
  const store = t.store();
  await store.createWorkflow(workflowOf('run-1', { workflowDefinition: bigDefinition }));
  await store.createWorkflow(workflowOf('run-2', { workflowDefinition: structuredClone(bigDefinition) }));

  const item = await t.raw(workflowKey('run-1'));
  expect(typeof item?.def).toBe('string');
  expect(bodyJson(item)).not.toContain('workflowDefinition');
  expect(bodyJson(item).length).toBeLessThan(1000);
  expect((await t.raw(workflowKey('run-2')))?.def).toBe(item?.def);
  expect(await t.snapshotCount()).toBe(1);
  // The snapshot is not a run: no run listing or index holds it.
  const byName = await t.client.send(
    new QueryCommand({
      TableName: t.name,
      IndexName: 'byName',
      KeyConditionExpression: 'workflowName = :n',
      ExpressionAttributeValues: { ':n': 'order_flow' },
    }),
  );
  expect(byName.Items?.map((i) => i.pk).sort()).toEqual(['run-1', 'run-2']);

  // Another process, which has seen neither the run nor its snapshot, reads it back whole.
  const cold = t.store();
  const read = await cold.getWorkflow('run-1');
  expect(read?.workflowDefinition).toEqual(bigDefinition);
  expect(await cold.findWorkflows({ name: 'order_flow' })).toHaveLength(2);
});

it('commits a run whose definition changed (a restart with the latest definition) under the new snapshot', async () => {
  const t = await freshTable();
  const store = t.store();
  await store.createWorkflow(workflowOf('run-1'));
  const run = await store.getWorkflow('run-1');
  if (!run) throw new Error('run not stored');
  const latest = workflowDefOf('order_flow', 2, { description: 'the latest' });
  await store.commitWorkflow({ ...run, workflowDefinition: latest, workflowVersion: 2, rev: 2 }, 1);

  expect((await t.store().getWorkflow('run-1'))?.workflowDefinition).toEqual(latest);
  expect(await t.snapshotCount()).toBe(2);
});

it('stores a task row without its workflow task, one snapshot per shape shared across reference names', async () => {
  const t = await freshTable();
  const store = t.store();
  await store.createWorkflow(workflowOf('run-1'));
  const before = await t.snapshotCount();
  // Iterations of a loop run under `ref__n`; their workflow task is the loop body's (`ref`).
  const first = taskOf('run-1', 'task-1', 1, { referenceTaskName: 'ref_1' });
  const again = taskOf('run-1', 'task-2', 2, {
    referenceTaskName: 'ref_1__2',
    workflowTask: { ...first.workflowTask, taskReferenceName: 'ref_1' },
  });
  await store.createTasks([first, again]);

  const row = await t.raw(taskKey('run-1', 'task-1'));
  expect(typeof row?.wt).toBe('string');
  expect(bodyJson(row)).not.toContain('workflowTask');
  expect((await t.raw(taskKey('run-1', 'task-2')))?.wt).toBe(row?.wt);
  expect(await t.snapshotCount()).toBe(before + 1);

  const cold = t.store();
  expect((await cold.getTask('run-1', 'task-1'))?.workflowTask).toEqual(first.workflowTask);
  expect((await cold.getTask('run-1', 'task-2'))?.workflowTask).toEqual(first.workflowTask);
  const listed = await cold.listTasks('run-1');
  expect(listed.map((task) => task.workflowTask.taskReferenceName)).toEqual(['ref_1', 'ref_1']);

  // A row read back and written again names the same snapshot and stays readable.
  const read = await store.getTask('run-1', 'task-1');
  if (!read) throw new Error('task not stored');
  await store.updateTask({ ...read, status: 'IN_PROGRESS', rev: 2 }, 1);
  expect((await t.raw(taskKey('run-1', 'task-1')))?.wt).toBe(row?.wt);
  expect((await t.store().getTask('run-1', 'task-1'))?.status).toBe('IN_PROGRESS');
});

it('keeps a workflow task in the row when the task runs under a reference name it does not give', async () => {
  const t = await freshTable();
  const store = t.store();
  await store.createWorkflow(workflowOf('run-1'));
  const task = taskOf('run-1', 'task-1', 1, {
    referenceTaskName: 'other_ref',
    workflowTask: { ...taskOf('run-1', 'x', 1).workflowTask, taskReferenceName: 'ref_1' },
  });
  await store.createTasks([task]);

  const row = await t.raw(taskKey('run-1', 'task-1'));
  expect(row?.wt).toBeUndefined();
  expect((await t.store().getTask('run-1', 'task-1'))?.workflowTask).toEqual(task.workflowTask);
});

it('reads runs and task rows written before snapshots, with their definition and workflow task inside', async () => {
  const t = await freshTable();
  const run = workflowOf('old-run', { workflowDefinition: bigDefinition });
  const task = taskOf('old-run', 'old-task', 1);
  await t.client.send(new PutCommand({ TableName: t.name, Item: workflowItem(run) }));
  await t.client.send(new PutCommand({ TableName: t.name, Item: taskItem(task) }));
  expect(bodyJson(await t.raw(workflowKey('old-run')))).toContain('workflowDefinition');

  const store = t.store();
  expect((await store.getWorkflow('old-run'))?.workflowDefinition).toEqual(bigDefinition);
  expect((await store.getTask('old-run', 'old-task'))?.workflowTask).toEqual(task.workflowTask);
  // The next commit moves it to the snapshot form.
  const read = await store.getWorkflow('old-run');
  if (!read) throw new Error('run not read');
  await store.commitWorkflow({ ...read, rev: 2 }, 1);
  expect(typeof (await t.raw(workflowKey('old-run')))?.def).toBe('string');
  expect((await t.store().getWorkflow('old-run'))?.workflowDefinition).toEqual(bigDefinition);
});

it('says which snapshot is missing rather than returning a run without its definition', async () => {
  const t = await freshTable();
  await t.client.send(
    new PutCommand({
      TableName: t.name,
      Item: { ...workflowItem(workflowOf('broken'), 'no-such-hash') },
    }),
  );
  await expect(t.store().getWorkflow('broken')).rejects.toThrow(/Snapshot no-such-hash is missing/);
});
