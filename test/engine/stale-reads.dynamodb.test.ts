/**
 * Eventually consistent reads (lib/store/ports.ts ReadOptions `fresh: false`, the queue's peek) on
 * the DynamoDB adapters, over dynalite. dynalite answers every read consistently, so a client
 * middleware plays a lagging replica: an eventually consistent GetItem or BatchGetItem of a key the
 * test names answers what that replica still holds (an older item, or none). What must hold:
 * - the adapters send ConsistentRead false exactly where the caller said a stale answer is fine
 *   (and the store meter's model, bench/lib/metered-stores.ts, bills those reads at half);
 * - a poll never drops a queue entry, and an update never answers 404 or ignores a result, because
 *   an eventually consistent read missed what was just written: both read fresh before acting on
 *   absence or on a state they would not write over;
 * - a stale revision only ever costs a failed conditional write and a fresh retry;
 * - a start never misses a task definition registered just before it.
 */
import type { AttributeValue, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { afterEach, expect, it } from 'vitest';
import { meteredStores } from '../../bench/lib/metered-stores.ts';
import { StoreMeter } from '../../bench/lib/store-meter.ts';
import { readTasks } from '../../lib/engine/decide-read.ts';
import type { ScriptEvaluator } from '../../lib/engine/script/evaluator.ts';
import { defaultRegistry } from '../../lib/engine/tasks/index.ts';
import type { TaskRecord, WorkflowRecord } from '../../lib/model/execution.ts';
import type { ServiceStores } from '../../lib/runtime/store-bundle.ts';
import { ensureTables, tableNamesFrom } from '../../lib/runtime/store-bundle.ts';
import { createDynamoStores, createMemoryStores } from '../../lib/runtime/stores.ts';
import { dynamoClient } from '../../lib/store/dynamodb/embedded.ts';
import { taskKey } from '../../lib/store/dynamodb/execution-items.ts';
import { dynamoSession } from '../../lib/store/dynamodb/index.ts';
import { useTestDynamo } from '../helpers/dynamo.ts';
import { type EngineHarness, engineHarness } from '../helpers/engine.ts';
import { simpleTask } from '../helpers/fixtures.ts';
import { taskOf, workflowOf } from '../store/executions.contract.ts';

const TYPE = 'pack_order';
const noScripts: ScriptEvaluator = {
  evaluate: () => Promise.reject(new Error('no scripts in these tests')),
  close: () => Promise.resolve(),
};
const FLOW = { name: 'stale_flow', version: 1, tasks: [simpleTask('pack', { name: TYPE })] };

type Key = Record<string, unknown>;
/** A read as the client sent it: the command, whether consistent, and the keys it named. */
interface Sent {
  command: string;
  consistent: boolean;
  keys: Key[];
}

/**
 * A client whose eventually consistent reads of the keys in `replica` answer what a lagging
 * replica holds there (an item, or null: none yet); every read is recorded in `sent`.
 */
function laggingClient(client: DynamoDBClient) {
  const sent: Sent[] = [];
  const replica = new Map<string, Record<string, unknown> | null>();
  const id = (key: Key) => `${String(key.pk)}\u0000${String(key.sk)}`;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      // The input is marshalled already (the document client does that before serializing); the
      // output is unmarshalled by the time it comes back here (before deserializing).
      // The input is marshalled already (the document client does that before serializing); the
      // output is unmarshalled by the time it comes back here (before deserializing).
      const input = args.input as Record<string, unknown>;
      const command = String(context.commandName);
      const result = await next(args);
      const output = result.output as unknown as Record<string, unknown>;
      if (command === 'GetItemCommand') {
        const key = unmarshall(input.Key as Record<string, AttributeValue>);
        const consistent = input.ConsistentRead === true;
        sent.push({ command, consistent, keys: [key] });
        if (!consistent && replica.has(id(key))) {
          const held = replica.get(id(key));
          output.Item = held ?? undefined;
        }
      } else if (command === 'BatchGetItemCommand') {
        const requests = input.RequestItems as Record<
          string,
          { Keys: Record<string, AttributeValue>[]; ConsistentRead?: boolean }
        >;
        for (const [table, request] of Object.entries(requests)) {
          const consistent = request.ConsistentRead === true;
          sent.push({ command, consistent, keys: request.Keys.map((k) => unmarshall(k)) });
          if (consistent) continue;
          const responses = (output.Responses ?? {}) as Record<string, Key[]>;
          // What the replica holds instead: an older item, or none.
          responses[table] = (responses[table] ?? []).flatMap((item) => {
            if (!replica.has(id(item))) return [item];
            const held = replica.get(id(item));
            return held ? [held] : [];
          });
        }
      } else if (command === 'QueryCommand') {
        sent.push({ command, consistent: input.ConsistentRead === true, keys: [] });
      }
      return result;
    },
    { step: 'serialize', name: 'laggingReplica' },
  );
  return { sent, replica, id };
}

const dynamo = useTestDynamo();
let cleanup: (() => Promise<void>) | undefined;
let h: EngineHarness | undefined;

afterEach(async () => {
  await h?.close();
  await cleanup?.();
  h = undefined;
  cleanup = undefined;
});

async function setUp() {
  const tables = tableNamesFrom(dynamo().uniquePrefix());
  await ensureTables(dynamoSession(dynamoClient(dynamo().endpoint)), tables);
  const client = dynamoClient(dynamo().endpoint);
  const lag = laggingClient(client);
  const stores: ServiceStores = createDynamoStores(dynamoSession(client), tables);
  cleanup = () => stores.close();
  h = await engineHarness({ stores });
  await h.registerTaskDefs([{ name: TYPE, retryCount: 0, responseTimeoutSeconds: 600 }]);
  await h.register(FLOW);
  /** What the replica holds of a task row: its item as stored now. */
  const rowItem = async (task: TaskRecord) => {
    const { GetCommand } = await import('@aws-sdk/lib-dynamodb');
    const { documentClient } = await import('../../lib/store/dynamodb/index.ts');
    const read = await documentClient(dynamo().admin).send(
      new GetCommand({
        TableName: tables.executions,
        Key: taskKey(task.workflowInstanceId, task.taskId),
        ConsistentRead: true,
      }),
    );
    return read.Item as Record<string, unknown>;
  };
  return { engine: h, lag, tables, rowItem };
}

const rowKey = (task: TaskRecord) => taskKey(task.workflowInstanceId, task.taskId);

it('reads eventually consistent only where a stale answer is safe: the claim, the update, the peek, the start', async () => {
  const { engine, lag } = await setUp();
  lag.sent.length = 0;
  const id = await engine.start(FLOW.name, {});
  const startReads = lag.sent.filter((s) => s.command === 'BatchGetItemCommand');
  // The start's task definitions: one eventually consistent BatchGet, every name found.
  expect(startReads).toEqual([expect.objectContaining({ consistent: false })]);
  // The decide's reads of the run stay consistent.
  expect(lag.sent.filter((s) => s.command === 'GetItemCommand').every((s) => s.consistent)).toBe(true);

  lag.sent.length = 0;
  const task = await engine.poll(TYPE);
  expect(task?.status).toBe('IN_PROGRESS');
  // Every shard of the queue read eventually consistent, then the claimed row.
  const queries = lag.sent.filter((s) => s.command === 'QueryCommand');
  expect(queries.length).toBeGreaterThanOrEqual(4);
  expect(queries.every((s) => !s.consistent)).toBe(true);
  expect(lag.sent.filter((s) => s.command === 'GetItemCommand')).toEqual([
    { command: 'GetItemCommand', consistent: false, keys: [rowKey(task as TaskRecord)] },
  ]);

  lag.sent.length = 0;
  await engine.complete(task as TaskRecord, { packed: true });
  const updateReads = lag.sent.filter(
    (s) => s.command === 'GetItemCommand' && s.keys[0]?.sk === rowKey(task as TaskRecord).sk,
  );
  expect(updateReads[0]).toEqual(expect.objectContaining({ consistent: false }));
  expect((await engine.run(id)).status).toBe('COMPLETED');
});

it('a poll whose stale read misses the row just created still claims the task, and drops no entry', async () => {
  const { engine, lag } = await setUp();
  const id = await engine.start(FLOW.name, {});
  const [row] = await engine.tasks(id);
  // The replica has not seen the row the decide wrote before it pushed the entry.
  lag.replica.set(lag.id(rowKey(row as TaskRecord)), null);
  lag.sent.length = 0;
  const task = await engine.poll(TYPE);
  expect(task?.taskId).toBe(row?.taskId);
  expect(task?.status).toBe('IN_PROGRESS');
  // The stale miss was read again, consistently, before anything was decided.
  expect(lag.sent.filter((s) => s.command === 'GetItemCommand').map((s) => s.consistent)).toEqual([
    false,
    true,
  ]);
  expect(await engine.stores.queue.size(TYPE)).toBe(0);
});

it('an update whose stale read misses the row, or shows it not yet claimed, is applied: no 404, no failed write', async () => {
  const { engine, lag, rowItem } = await setUp();
  const first = await engine.start(FLOW.name, {});
  const [scheduled] = await engine.tasks(first);
  const scheduledItem = await rowItem(scheduled as TaskRecord);
  const task = (await engine.poll(TYPE)) as TaskRecord;
  // The replica still holds the row as the decide wrote it (SCHEDULED), before the claim.
  lag.replica.set(lag.id(rowKey(task)), scheduledItem);
  lag.sent.length = 0;
  await engine.complete(task, { packed: 1 });
  expect((await engine.run(first)).status).toBe('COMPLETED');
  expect((await engine.task(first, 'pack'))?.outputData).toEqual({ packed: 1 });
  const reads = lag.sent.filter((s) => s.command === 'GetItemCommand' && s.keys[0]?.sk === rowKey(task).sk);
  expect(reads.slice(0, 2).map((s) => s.consistent)).toEqual([false, true]);

  const second = await engine.start(FLOW.name, {});
  const next = (await engine.poll(TYPE)) as TaskRecord;
  expect(next.workflowInstanceId).toBe(second);
  // The replica has no row at all yet.
  lag.replica.set(lag.id(rowKey(next)), null);
  await engine.complete(next, { packed: 2 });
  expect((await engine.run(second)).status).toBe('COMPLETED');
  expect((await engine.task(second, 'pack'))?.outputData).toEqual({ packed: 2 });
});

it('an update whose stale read shows an older revision of the claimed row fails its conditional write once and is retried fresh', async () => {
  const { engine, lag, rowItem } = await setUp();
  const id = await engine.start(FLOW.name, {});
  const task = (await engine.poll(TYPE)) as TaskRecord;
  const claimed = await rowItem(task);
  // The worker extends its lease: the row moves to the next revision, still IN_PROGRESS.
  await engine.services.engine.tasks.update({
    workflowInstanceId: task.workflowInstanceId,
    taskId: task.taskId,
    status: 'IN_PROGRESS',
    extendLease: true,
  });
  await engine.settle();
  // The replica still holds the claim's revision.
  lag.replica.set(lag.id(rowKey(task)), claimed);
  lag.sent.length = 0;
  await engine.complete(task, { packed: 3 });
  const row = await engine.task(id, 'pack');
  expect(row?.status).toBe('COMPLETED');
  expect(row?.outputData).toEqual({ packed: 3 });
  expect(row?.rev).toBe(Number(claimed.rev) + 2);
  const reads = lag.sent.filter((s) => s.command === 'GetItemCommand' && s.keys[0]?.sk === rowKey(task).sk);
  expect(reads.slice(0, 2).map((s) => s.consistent)).toEqual([false, true]);
  expect((await engine.run(id)).status).toBe('COMPLETED');
});

it('a start whose stale read misses a task definition registered just before still embeds it', async () => {
  const { engine, lag } = await setUp();
  await engine.registerTaskDefs([{ name: 'label_order', retryCount: 0, responseTimeoutSeconds: 77 }]);
  await engine.register({
    name: 'label_flow',
    version: 1,
    tasks: [simpleTask('pack', { name: TYPE }), simpleTask('label', { name: 'label_order' })],
  });
  lag.replica.set(lag.id({ pk: 'TASK#label_order', sk: 'TASK' }), null);
  lag.sent.length = 0;
  const id = await engine.start('label_flow', {});
  const batches = lag.sent.filter((s) => s.command === 'BatchGetItemCommand');
  // Both names eventually consistent, then the one the replica missed, consistently.
  expect(batches.map((b) => [b.consistent, b.keys.length])).toEqual([
    [false, 2],
    [true, 1],
  ]);
  const label = (await engine.run(id)).workflowDefinition.tasks.find((t) => t.name === 'label_order');
  expect(label?.taskDefinition?.responseTimeoutSeconds).toBe(77);
});

it("the store meter bills the adapter's eventually consistent reads at half a unit", async () => {
  const meter = new StoreMeter({ sizes: true });
  const stores = meteredStores(meter, createMemoryStores());
  await stores.taskDefs.put({ name: 'a', retryCount: 0 } as never);
  await stores.taskDefs.getMany(['a', 'b'], { fresh: false });
  await stores.taskDefs.getMany(['a', 'b']);
  await stores.queue.peek('q', 1, Date.now());
  const units = (op: string) =>
    [...meter.snapshot().ops.entries()].find(([key]) => key.endsWith(op))?.[1].readUnits;
  // Fresh: two consistent reads (one found, one not). Stale fine: two halves, then the one
  // missing name again consistently (1). Together 2 + 2.
  expect(units('taskDefs.getMany')).toBe(4);
  // One Query per shard, half a unit each.
  expect(units('queue.peek')).toBe(2);
  await stores.close();
});

it("a decide whose stale read of the named row misses the worker's result reads it fresh, and the run goes on", async () => {
  const { engine, lag, rowItem } = await setUp();
  const id = await engine.start(FLOW.name, {});
  const task = (await engine.poll(TYPE)) as TaskRecord;
  // The replica keeps the claimed row (IN_PROGRESS) after the worker's result is written.
  lag.replica.set(lag.id(rowKey(task)), await rowItem(task));
  lag.sent.length = 0;
  await engine.complete(task, { packed: 4 });
  const batches = lag.sent.filter(
    (s) => s.command === 'BatchGetItemCommand' && s.keys.some((k) => k.sk === rowKey(task).sk),
  );
  // The named row eventually consistent, showing no news; then fresh.
  expect(batches.map((b) => b.consistent)).toEqual([false, true]);
  const run = await engine.run(id);
  expect(run.status).toBe('COMPLETED');
  expect(run.output).toEqual({ packed: 4 });
});

it('a decide reads fresh a row its stale read shows older than the revision the run holds (a task reopened in place)', async () => {
  const { engine, lag, rowItem } = await setUp();
  const store = engine.stores.executions;
  const run = workflowOf('run-reopened');
  const done = taskOf(run.workflowId, 'loop-1', 1, { status: 'COMPLETED', rev: 1 });
  const other = taskOf(run.workflowId, 'task-2', 2, { status: 'IN_PROGRESS', rev: 1 });
  const otherDone = { ...other, status: 'COMPLETED' as const, rev: 2 };
  await store.createTasks([done, other]);
  const before = await rowItem(done);
  // An operation reopens the task in place: its row moves on, and the record holds that revision.
  const reopened = { ...done, status: 'IN_PROGRESS' as const, endTime: 0, rev: 2 };
  await store.updateTask(reopened, 1);
  await store.createWorkflow({ ...run, tasks: [{ ...reopened, executed: false }, { ...other }] });
  // A worker completed the other task: news, which the stale read shows too.
  await store.updateTask(otherDone, 1);
  lag.replica.set(lag.id(rowKey(done)), before);
  const record = (await store.getWorkflow(run.workflowId)) as WorkflowRecord;
  lag.sent.length = 0;
  await readTasks(
    {
      executions: store,
      registry: defaultRegistry({ scripts: noScripts, clock: engine.clock }),
      clock: engine.clock,
    },
    record,
    // Named: the other task, which a worker completed.
    [other.taskId],
  );
  // The stale copy of the reopened row is not taken: it is read again, fresh.
  expect(record.tasks.find((t) => t.taskId === done.taskId)?.status).toBe('IN_PROGRESS');
  expect(record.tasks.find((t) => t.taskId === done.taskId)?.rev).toBe(2);
  expect(record.tasks.find((t) => t.taskId === other.taskId)?.status).toBe('COMPLETED');
  const batches = lag.sent.filter((s) => s.command === 'BatchGetItemCommand');
  expect(batches.map((b) => [b.consistent, b.keys.map((k) => k.sk).sort()])).toEqual([
    [false, [rowKey(done).sk, rowKey(other).sk].sort()],
    // The named row shows its news and is kept; the reopened one is older than the record's: fresh.
    [true, [rowKey(done).sk]],
  ]);
});
