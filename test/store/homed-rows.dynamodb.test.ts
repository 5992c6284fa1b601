/**
 * Homed task rows (lib/model/ids.ts homeOf, lib/store/dynamodb/execution-items.ts taskKey): a run
 * created since homes keeps its rows under its home, found by a task id alone with one consistent
 * read and kept out of the byTask index; rows of runs from before homes stay in their run's
 * partition and are still found through byTask; a run whose id shares another's home never
 * lists or removes the other's rows. On in-process dynalite.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { expect, it } from 'vitest';
import { generationAt, homeOf, taskIdOf } from '../../lib/model/ids.ts';
import { homePk, taskItem, taskKey } from '../../lib/store/dynamodb/execution-items.ts';
import { freshExecutionsTable, useTestDynamo } from '../helpers/dynamo.ts';
import { taskOf, workflowOf } from './executions.contract.ts';

const dynamo = useTestDynamo();
/** The contract's creation time: its rows are scheduled at T0 + seq. */
const T0 = 1_700_000_000_000;

const homedRun = (workflowId: string) =>
  workflowOf(workflowId, { generation: generationAt(T0), homedTaskIds: true });

/** A row of the run with the id the engine gives its `seq`th task. */
function rowOf(run: ReturnType<typeof workflowOf>, seq: number) {
  return taskOf(run.workflowId, taskIdOf(run, `ref_${seq}`, 0), seq);
}

const byTaskEntries = (t: Awaited<ReturnType<typeof freshExecutionsTable>>, taskId: string) =>
  t.indexed('byTask', 'taskId', taskId);

it("keeps a homed run's rows under its home, out of byTask, and reads them by task id alone", async () => {
  const t = await freshExecutionsTable(dynamo());
  const store = t.store();
  const run = homedRun('run-homed');
  await store.createWorkflow(run);
  const [first, second] = [rowOf(run, 1), rowOf(run, 2)];
  const rows = [first, second];
  await store.createTasks(rows);

  const stored = await t.raw(taskKey(run.workflowId, first.taskId));
  expect(stored?.pk).toBe(homePk(homeOf(run.workflowId)));
  expect(stored?.taskId).toBeUndefined();
  expect(await byTaskEntries(t, first.taskId)).toEqual([]);

  // Found at once (a consistent read, not an index that lags), by every reader.
  expect(await store.findTask(second.taskId)).toEqual(second);
  expect(await store.getTask(run.workflowId, first.taskId)).toEqual(first);
  expect(await store.getTasks(run.workflowId, [second.taskId, first.taskId])).toEqual([second, first]);
  expect(await store.listTasks(run.workflowId)).toEqual(rows);
  expect(await store.scanTasks([run.workflowId])).toEqual(rows);
  expect(await store.tasksOfTypes(['SIMPLE'])).toEqual(expect.arrayContaining(rows));

  const done = { ...first, status: 'COMPLETED' as const, rev: 2 };
  await store.updateTask(done, 1);
  expect(await store.findTask(done.taskId)).toEqual(done);

  await store.removeWorkflow(run.workflowId);
  expect(await store.getWorkflow(run.workflowId)).toBeUndefined();
  expect(await store.listTasks(run.workflowId)).toEqual([]);
  expect(await store.findTask(second.taskId)).toBeUndefined();
});

it('still finds the rows of a run from before homes, in its own partition, through byTask', async () => {
  const t = await freshExecutionsTable(dynamo());
  const store = t.store();
  const run = workflowOf('run-legacy', { generation: generationAt(T0) });
  await store.createWorkflow(run);
  const row = rowOf(run, 1);
  await store.createTasks([row]);

  const stored = await t.raw(taskKey(run.workflowId, row.taskId));
  expect(stored?.pk).toBe(run.workflowId);
  expect(stored?.taskId).toBe(row.taskId);
  expect(await byTaskEntries(t, row.taskId)).toHaveLength(1);
  expect(await store.findTask(row.taskId)).toEqual(row);
  expect(await store.listTasks(run.workflowId)).toEqual([row]);
  expect(await store.scanTasks([run.workflowId])).toEqual([row]);

  await store.removeWorkflow(run.workflowId);
  expect(await store.findTask(row.taskId)).toBeUndefined();
  expect(await store.listTasks(run.workflowId)).toEqual([]);
  // An id longer than a sort key holds names no row: not found, not DynamoDB's ValidationException.
  expect(await store.findTask('x'.repeat(1500))).toBeUndefined();
});

it('never lists, removes or expires the rows of another run that shares the home', async () => {
  const t = await freshExecutionsTable(dynamo());
  const store = t.store();
  const run = homedRun('run-a');
  await store.createWorkflow(run);
  const own = rowOf(run, 1);
  await store.createTasks([own]);
  // Two ids share a home with a chance of 2^-60; the row of such a run is written as it would be.
  const stranger = taskOf('run-b', `${homeOf(run.workflowId)}-8000-000000000001`, 1);
  await t.client.send(
    new PutCommand({
      TableName: t.name,
      Item: { ...taskItem(stranger), pk: homePk(homeOf(run.workflowId)) },
    }),
  );

  expect(await store.listTasks(run.workflowId)).toEqual([own]);
  expect(await store.scanTasks([run.workflowId])).toEqual([own]);
  expect(await store.findTask(stranger.taskId)).toEqual(stranger);

  await store.removeWorkflow(run.workflowId);
  expect(await store.findTask(own.taskId)).toBeUndefined();
  expect(await store.findTask(stranger.taskId)).toEqual(stranger);

  // An expired run's cleanup takes only that run's rows, too.
  const expired = homedRun('run-c');
  const rows = [rowOf(expired, 1), rowOf(expired, 2)];
  await store.createTasks(rows);
  await store.removeExpiredRun(expired.workflowId, T0 + 10);
  expect(await store.listTasks(expired.workflowId)).toEqual([]);
  await store.removeExpiredRun(run.workflowId, T0 + 10);
  expect(await store.findTask(stranger.taskId)).toEqual(stranger);
});
