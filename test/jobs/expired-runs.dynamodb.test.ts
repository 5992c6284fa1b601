/**
 * The cleaner of expired runs (lib/jobs/expired-runs.ts): a TTL removal of a run's item on the
 * executions stream removes the task rows and log lines the run leaves behind; any other record
 * (a removal by the service, a put, a task row's removal) changes nothing; a record delivered twice
 * is harmless; and its Lambda handler does it from the environment the stack sets. Stream records
 * are built as DynamoDB Streams writes them (marshalled keys, the TTL deleter's userIdentity); the
 * store is the DynamoDB adapter on in-process dynalite.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { expect, it } from 'vitest';
import { envNameOf } from '../../lib/config/load.ts';
import { expiredRuns } from '../../lib/jobs/expired-runs.ts';
import { createLogger } from '../../lib/log/logger.ts';
import {
  type ExecutionStreamRecord,
  executionChangesOf,
  removedByTtl,
  TTL_DELETER,
} from '../../lib/store/dynamodb/execution-changes.ts';
import { workflowKey } from '../../lib/store/dynamodb/execution-items.ts';
import type { DynamoExecutionStore } from '../../lib/store/dynamodb/executions.ts';
import { freshExecutionsTable, useTestDynamo } from '../helpers/dynamo.ts';
import { taskOf, workflowOf } from '../store/executions.contract.ts';

const dynamo = useTestDynamo();
const logger = createLogger({ level: 'error', format: 'json' });

/** The stream record of a run item's removal; by TTL unless `by` says otherwise (null: by the service). */
const removal = (workflowId: string, by: ExecutionStreamRecord['userIdentity'] | null = TTL_DELETER) => ({
  eventName: 'REMOVE' as const,
  dynamodb: { Keys: marshall(workflowKey(workflowId)) },
  ...(by ? { userIdentity: by } : {}),
});

/** A stored run with two task rows and a log line each, as a run that ended and expired leaves it. */
async function endedRun(store: DynamoExecutionStore, workflowId: string) {
  const tasks = [taskOf(workflowId, `${workflowId}-a`, 1), taskOf(workflowId, `${workflowId}-b`, 2)];
  await store.createWorkflow(workflowOf(workflowId, { status: 'COMPLETED', tasks, seq: 2 }));
  await store.createTasks(tasks);
  await store.appendLogs(tasks.map((t) => ({ taskId: t.taskId, log: 'done', createdTime: 1 })));
  return tasks.map((t) => t.taskId);
}

async function handle(store: DynamoExecutionStore, records: ExecutionStreamRecord[]) {
  await expiredRuns.handle(executionChangesOf(records), {
    expiredRuns: () => store,
    index: () => {
      throw new Error('the cleaner writes no search index');
    },
    logger,
  });
}

it("removes a TTL-expired run's task rows and log lines, and a second delivery changes nothing", async () => {
  const t = await freshExecutionsTable(dynamo());
  const store = t.store();
  const taskIds = await endedRun(store, 'run-1');
  // DynamoDB's TTL deletes the run's item alone.
  await t.client.send(new DeleteCommand({ TableName: t.name, Key: workflowKey('run-1') }));
  expect(await store.listTasks('run-1')).toHaveLength(2);

  await handle(store, [removal('run-1')]);
  expect(await store.listTasks('run-1')).toEqual([]);
  for (const id of taskIds) expect(await store.logs(id)).toEqual([]);

  await handle(store, [removal('run-1')]);
  expect(await store.listTasks('run-1')).toEqual([]);
});

it('leaves everything else alone: removals by the service, puts, task rows, other runs', async () => {
  const t = await freshExecutionsTable(dynamo());
  const store = t.store();
  await endedRun(store, 'run-2');
  const [kept] = await endedRun(store, 'run-3');
  const put = {
    eventName: 'MODIFY' as const,
    dynamodb: {
      Keys: marshall(workflowKey('run-2')),
      NewImage: marshall((await t.raw(workflowKey('run-2'))) ?? {}),
    },
  };
  const rowRemoval = {
    eventName: 'REMOVE' as const,
    dynamodb: { Keys: marshall({ pk: 'run-2', sk: `T#${kept}` }) },
    userIdentity: TTL_DELETER,
  };
  await handle(store, [removal('run-2', null), removal('run-2', { type: 'User' }), put, rowRemoval]);
  expect(await store.listTasks('run-2')).toHaveLength(2);
  expect(await store.getWorkflow('run-2')).toBeDefined();

  // One expired run in a batch: only its rows go.
  await t.client.send(new DeleteCommand({ TableName: t.name, Key: workflowKey('run-3') }));
  await handle(store, [put, removal('run-3')]);
  expect(await store.listTasks('run-3')).toEqual([]);
  expect(await store.listTasks('run-2')).toHaveLength(2);
});

it('takes nothing from a run created again under the id, before or after the cleaner runs', async () => {
  const t = await freshExecutionsTable(dynamo());
  const store = t.store();
  const [oldTask] = await endedRun(store, 'run-5');
  await t.client.send(new DeleteCommand({ TableName: t.name, Key: workflowKey('run-5') }));
  const removedAt = Date.now();

  // Created again (an idempotency key's id) before the cleaner came: it leaves the id alone.
  const again = taskOf('run-5', 'run-5-new', 3, { scheduledTime: removedAt + 1_000 });
  await store.createWorkflow(workflowOf('run-5', { tasks: [again], seq: 3 }));
  await store.createTasks([again]);
  const record = {
    ...removal('run-5'),
    dynamodb: { ...removal('run-5').dynamodb, ApproximateCreationDateTime: Math.floor(removedAt / 1000) },
  };
  await handle(store, [record]);
  expect(await store.getWorkflow('run-5')).toBeDefined();
  expect((await store.listTasks('run-5')).map((task) => task.taskId).sort()).toEqual(
    ['run-5-a', 'run-5-b', 'run-5-new'].sort(),
  );

  // Its record not written yet (a start under way): only the rows and lines from before go.
  await t.client.send(new DeleteCommand({ TableName: t.name, Key: workflowKey('run-5') }));
  await store.appendLogs([{ taskId: oldTask as string, log: 'later', createdTime: removedAt + 5_000 }]);
  await handle(store, [record]);
  expect((await store.listTasks('run-5')).map((task) => task.taskId)).toEqual(['run-5-new']);
  expect((await store.logs(oldTask as string)).map((line) => line.log)).toEqual(['later']);
});

it('tells a TTL removal from any other record', () => {
  expect(removedByTtl(removal('r'))).toBe(true);
  expect(removedByTtl(removal('r', null))).toBe(false);
  expect(removedByTtl({ ...removal('r'), eventName: 'MODIFY' })).toBe(false);
  expect(removedByTtl(removal('r', { type: 'Service', principalId: 'someone.else' }))).toBe(false);
  expect(executionChangesOf([removal('r')])).toEqual([{ kind: 'workflow', workflowId: 'r', expired: true }]);
  const timed = {
    ...removal('r'),
    dynamodb: { ...removal('r').dynamodb, ApproximateCreationDateTime: 1_700_000_000 },
  };
  expect(executionChangesOf([timed])).toEqual([
    { kind: 'workflow', workflowId: 'r', expired: true, removedAt: 1_700_000_000_000 },
  ]);
  expect(executionChangesOf([removal('r', null)])).toEqual([
    { kind: 'workflow', workflowId: 'r', record: undefined },
  ]);
});

it('is deployed only with a retention set, read as the service reads it', () => {
  const deployed = (properties: Record<string, string>) =>
    expiredRuns.deployedWith({ searchBackend: 'store', properties });
  expect(deployed({})).toBe(false);
  expect(deployed({ 'service.workflow.retention': '0' })).toBe(false);
  expect(deployed({ 'service.workflow.retention': '0d' })).toBe(false);
  expect(deployed({ 'service.workflow.retention': '30d' })).toBe(true);
  expect(deployed({ 'service.workflow.retention': '3600' })).toBe(true);
});

it('runs as its Lambda handler, configured from the environment the stack sets', async () => {
  const t = await freshExecutionsTable(dynamo());
  await endedRun(t.store(), 'run-4');
  await t.client.send(new DeleteCommand({ TableName: t.name, Key: workflowKey('run-4') }));
  const env: Record<string, string> = {
    [envNameOf('service.dynamodb.endpoint')]: dynamo().endpoint,
    [envNameOf('service.dynamodb.tables.executions')]: t.name,
    [envNameOf('service.log.level')]: 'error',
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'AKIDCLEANER',
    AWS_SECRET_ACCESS_KEY: 'secret',
  };
  const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  Object.assign(process.env, env);
  try {
    // The function's own entry: a handler is made per Lambda instance, so per test here.
    const { handler } = await import('../../functions/expired-runs.ts');
    await handler({ Records: [removal('run-4')] } as unknown as DynamoDBStreamEvent);
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
  expect(await t.store().listTasks('run-4')).toEqual([]);
});
