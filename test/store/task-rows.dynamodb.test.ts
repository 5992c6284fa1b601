/**
 * Task rows deflated over DEFLATE_OVER (lib/store/dynamodb/execution-items.ts), like run records:
 * a large row is stored as `bodyZ` and reads back whole through every reader (get, list, find, task
 * search, the change stream); a small one stays plain `body`; rows written before deflation still
 * read; a row too large even deflated is refused as PayloadTooLargeError, not DynamoDB's
 * ValidationException. On in-process dynalite.
 */
import { randomBytes } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { expect, it } from 'vitest';
import { PayloadTooLargeError } from '../../lib/model/errors.ts';
import { executionChangeOf } from '../../lib/store/dynamodb/execution-changes.ts';
import { DEFLATE_OVER, taskItem, taskKey } from '../../lib/store/dynamodb/execution-items.ts';
import { freshExecutionsTable, useTestDynamo } from '../helpers/dynamo.ts';
import { taskOf, workflowOf } from './executions.contract.ts';

const dynamo = useTestDynamo();

async function freshTable() {
  const table = await freshExecutionsTable(dynamo());
  const raw = (workflowId: string, taskId: string) => table.raw(taskKey(workflowId, taskId));
  const store = table.store();
  await store.createWorkflow(workflowOf('run-1'));
  return { name: table.name, client: table.client, raw, store };
}

/** An order with `lines` lines: a few KB of JSON that deflates like business data. */
const order = (lines: number) => ({
  orderId: 'ord-1',
  lines: Array.from({ length: lines }, (_, i) => ({
    sku: `SKU-${1000 + i}`,
    qty: (i % 9) + 1,
    status: 'packed',
  })),
});

it('stores a row with a large input deflated (bodyZ), and reads it back whole', async () => {
  const t = await freshTable();
  const task = taskOf('run-1', 'big', 1, { inputData: order(200) });
  await t.store.createTasks([task]);

  const row = await t.raw('run-1', 'big');
  expect(row?.body).toBeUndefined();
  expect(row?.bodyZ).toBeInstanceOf(Uint8Array);
  expect(JSON.stringify(task).length).toBeGreaterThan(4 * DEFLATE_OVER);
  // Deflated, the row fits a few times fewer write units.
  expect((row?.bodyZ as Uint8Array | undefined)?.byteLength).toBeLessThan(JSON.stringify(task).length / 3);

  expect(await t.store.getTask('run-1', 'big')).toEqual(task);
  expect(await t.store.listTasks('run-1')).toEqual([task]);
  expect(await t.store.findTask('big')).toEqual(task);
  expect(await t.store.tasksOfTypes(['SIMPLE'])).toEqual([task]);
  expect(await t.store.scanTasks(['run-1'])).toEqual([task]);

  // An update (the worker's output) is conditional on rev as before, and stays deflated.
  const done = { ...task, status: 'COMPLETED' as const, outputData: order(100), rev: 2 };
  await t.store.updateTask(done, 1);
  expect((await t.raw('run-1', 'big'))?.bodyZ).toBeInstanceOf(Uint8Array);
  expect(await t.store.getTask('run-1', 'big')).toEqual(done);
});

it('keeps a small row plain (body), as before', async () => {
  const t = await freshTable();
  const task = taskOf('run-1', 'small', 1);
  expect(JSON.stringify(task).length).toBeLessThanOrEqual(DEFLATE_OVER);
  await t.store.createTasks([task]);

  const row = await t.raw('run-1', 'small');
  expect(typeof row?.body).toBe('string');
  expect(row?.bodyZ).toBeUndefined();
  expect(await t.store.getTask('run-1', 'small')).toEqual(task);
});

it('reads a large row written plain before deflation, and deflates it on its next write', async () => {
  const t = await freshTable();
  const task = taskOf('run-1', 'old', 1, { inputData: order(200) });
  // The row as the adapter wrote it before: the whole body as a JSON string, whatever its size.
  const { bodyZ: _bodyZ, ...plain } = taskItem(task);
  await t.client.send(new PutCommand({ TableName: t.name, Item: { ...plain, body: JSON.stringify(task) } }));
  expect(typeof (await t.raw('run-1', 'old'))?.body).toBe('string');

  expect(await t.store.getTask('run-1', 'old')).toEqual(task);
  expect(await t.store.findTask('old')).toEqual(task);
  await t.store.updateTask({ ...task, status: 'IN_PROGRESS', rev: 2 }, 1);
  const row = await t.raw('run-1', 'old');
  expect(row?.body).toBeUndefined();
  expect(row?.bodyZ).toBeInstanceOf(Uint8Array);
  expect((await t.store.getTask('run-1', 'old'))?.status).toBe('IN_PROGRESS');
});

it('the change stream decodes a deflated row into its search document', () => {
  const task = taskOf('run-1', 'streamed', 1, { inputData: order(200), taskType: 'HTTP' });
  const item = taskItem(task);
  expect(item.bodyZ).toBeInstanceOf(Uint8Array);
  const image = (value: Record<string, unknown>) => marshall(value, { removeUndefinedValues: true });
  const change = executionChangeOf({
    eventName: 'MODIFY',
    dynamodb: { Keys: image({ pk: item.pk, sk: item.sk }), NewImage: image(item) },
  });
  expect(change).toMatchObject({ kind: 'task', taskId: 'streamed' });
  expect(change?.record).toMatchObject({ taskType: 'HTTP', inputData: task.inputData });
});

it('refuses a row too large even deflated with PayloadTooLargeError, storing nothing', async () => {
  const t = await freshTable();
  // Random bytes do not deflate: about 450 KB deflated, over what an item holds.
  const task = taskOf('run-1', 'huge', 1, { inputData: { blob: randomBytes(450_000).toString('base64') } });
  await expect(t.store.createTasks([task])).rejects.toThrow(PayloadTooLargeError);
  await expect(t.store.createTasks([task])).rejects.toThrow(
    /Task huge of run run-1: its row takes \d+ bytes/,
  );
  expect(await t.raw('run-1', 'huge')).toBeUndefined();
});
