/**
 * A run id that comes back (an idempotency key's, an event's) after its run expired: DynamoDB's
 * TTL deletes the expired run's record, and its task rows stay until the cleaner of expired runs
 * comes (lib/jobs/expired-runs.ts), or for good without it. A run created again under the id gets
 * tasks of its own (its task ids derive from its generation, model/ids.ts): it adopts no row of
 * the earlier run, and neither its reads, task search nor a worker see one. A new run's rows live
 * under its home (model/ids.ts homeOf), which its task ids begin with. Engine over the DynamoDB
 * adapter on dynalite, with a one-hour retention.
 */
import { DeleteItemCommand, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { afterEach, expect, it } from 'vitest';
import { homeOf, taskIdOf } from '../../lib/model/ids.ts';
import { SearchService } from '../../lib/search/service.ts';
import { homePk, taskKey, workflowKey } from '../../lib/store/dynamodb/execution-items.ts';
import { TTL_ATTRIBUTE } from '../../lib/store/dynamodb/tables.ts';
import { type FreshStores, useTestDynamo } from '../helpers/dynamo.ts';
import { type EngineHarness, engineHarness } from '../helpers/engine.ts';
import { simpleTask } from '../helpers/fixtures.ts';

const HOUR = 3_600_000;
const TYPE = 'ship_order';
const FLOW = {
  name: 'order_flow',
  version: 1,
  tasks: [simpleTask('pack', { name: TYPE }), simpleTask('send', { name: TYPE })],
};

const dynamo = useTestDynamo();
let fresh: FreshStores | undefined;
let h: EngineHarness | undefined;

afterEach(async () => {
  await h?.close();
  await fresh?.cleanup();
  h = undefined;
  fresh = undefined;
});

async function setUp(): Promise<EngineHarness> {
  fresh = await dynamo().freshStores();
  h = await engineHarness({ stores: fresh.stores, properties: { 'service.workflow.retention': '1h' } });
  await h.registerTaskDefs([{ name: TYPE, retryCount: 0 }]);
  await h.register(FLOW);
  return h;
}

/** What DynamoDB's TTL does to the run's record at `now`: deletes it once its TTL has passed. */
async function ttlSweep(workflowId: string, now: number): Promise<boolean> {
  if (!fresh) throw new Error('no stores');
  const Key = marshall(workflowKey(workflowId));
  const { Item } = await fresh.admin.send(new GetItemCommand({ TableName: fresh.tables.executions, Key }));
  const ttl = Item?.[TTL_ATTRIBUTE]?.N;
  if (ttl === undefined || Number(ttl) > now / 1000) return false;
  await fresh.admin.send(new DeleteItemCommand({ TableName: fresh.tables.executions, Key }));
  return true;
}

/** Starts an order with the key and works both its tasks to the end. */
async function completedOrder(engine: EngineHarness, key: string, n: number): Promise<string> {
  const id = await engine.start(FLOW.name, { n }, { idempotencyKey: key, idempotencyStrategy: 'FAIL' });
  await engine.work(TYPE, { packed: n });
  await engine.work(TYPE, { sent: n });
  expect((await engine.run(id)).status).toBe('COMPLETED');
  return id;
}

it("keeps a new run's rows under its home, where a task id alone finds them", async () => {
  const engine = await setUp();
  const id = await engine.start(FLOW.name, { n: 1 });
  const [pack] = await engine.tasks(id);
  expect(pack?.taskId.startsWith(homeOf(id))).toBe(true);
  if (!fresh || !pack) throw new Error('no run');
  const Key = marshall(taskKey(id, pack.taskId));
  const { Item } = await fresh.admin.send(new GetItemCommand({ TableName: fresh.tables.executions, Key }));
  expect(Item?.pk?.S).toBe(homePk(homeOf(id)));
  expect(Item?.taskId).toBeUndefined();
  expect((await fresh.stores.executions.findTask(pack.taskId))?.referenceTaskName).toBe('pack');
  await engine.work(TYPE, { packed: 1 });
  await engine.work(TYPE, { sent: 1 });
  expect((await engine.run(id)).status).toBe('COMPLETED');
});

it("gives a run created again under an expired run's id tasks of its own", async () => {
  const engine = await setUp();
  const id = await completedOrder(engine, 'order-7', 1);
  const oldRows = await engine.tasks(id);
  expect(oldRows.map((t) => t.status)).toEqual(['COMPLETED', 'COMPLETED']);

  // The retention ends, and DynamoDB's TTL deletes the run's item alone; the rows stay.
  await engine.advance(2 * HOUR);
  await fresh?.admin.send(
    new DeleteItemCommand({ TableName: fresh.tables.executions, Key: marshall(workflowKey(id)) }),
  );

  const again = await engine.start(
    FLOW.name,
    { n: 2 },
    { idempotencyKey: 'order-7', idempotencyStrategy: 'FAIL' },
  );
  expect(again).toBe(id);
  const run = await engine.run(again);
  expect(run.status).toBe('RUNNING');
  expect(run.tasks.map((t) => [t.referenceTaskName, t.status])).toEqual([['pack', 'SCHEDULED']]);
  expect(oldRows.map((t) => t.taskId)).not.toContain(run.tasks[0]?.taskId);
  const { reader } = engine.services.engine;
  expect((await reader.get(again, true)).tasks?.map((t) => [t.referenceTaskName, t.status])).toEqual([
    ['pack', 'SCHEDULED'],
  ]);
  const search = new SearchService(engine.services.stores.executions);
  const found = await search.tasks({ start: 0, size: 10, query: `workflowId=${again}` });
  expect(found.results.map((t) => t.taskId)).toEqual([run.tasks[0]?.taskId]);

  // The worker gets the new run's tasks, with the new input, and the run ends on their outputs.
  const pack = await engine.work(TYPE, { packed: 2 });
  expect(pack.taskId).toBe(run.tasks[0]?.taskId);
  await engine.work(TYPE, { sent: 2 });
  const done = await engine.run(again);
  expect(done.status).toBe('COMPLETED');
  expect(done.input).toEqual({ n: 2 });
  expect((await reader.get(again, true)).tasks?.map((t) => t.outputData)).toEqual([
    { packed: 2 },
    { sent: 2 },
  ]);
  // Its rows are not the expired run's: the same reference names, other ids.
  expect(taskIdOf(done, 'pack', 0)).toBe(pack.taskId);
  expect(taskIdOf({ workflowId: id }, 'pack', 0)).not.toBe(pack.taskId);
});

it('starts one run when two starts with a key race the TTL deletion of the run it points at', async () => {
  const engine = await setUp();
  const expired = await completedOrder(engine, 'order-8', 1);
  await engine.advance(2 * HOUR);
  if (!fresh) throw new Error('no stores');

  // Start B reads the key, which points at the expired run, and stalls right there.
  const raw = fresh.stores.executions;
  const claim = raw.claimIdempotencyKey.bind(raw);
  let claimed!: () => void;
  let release!: () => void;
  const bClaimed = new Promise<void>((resolve) => {
    claimed = resolve;
  });
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let calls = 0;
  raw.claimIdempotencyKey = async (c) => {
    const held = await claim(c);
    if (calls++ === 0) {
      claimed();
      await gate;
    }
    return held;
  };
  const { starter } = engine.services.engine;
  const start = (n: number) =>
    starter.start({
      name: FLOW.name,
      input: { n },
      idempotencyKey: 'order-8',
      idempotencyStrategy: 'RETURN_EXISTING',
    });
  const b = start(3);
  await bClaimed;

  // Start A moves the key off the expired run to a new one.
  const a = await start(2);
  expect(a).not.toBe(expired);
  // DynamoDB's TTL comes by: A held the expired record, so it stays, and B cannot create its id.
  expect(await ttlSweep(expired, engine.clock.now())).toBe(false);
  release();
  expect(await b).toBe(a);
  await engine.settle();

  const live = (await engine.stores.executions.findWorkflows({ name: FLOW.name })).filter(
    (r) => r.status === 'RUNNING',
  );
  expect(live.map((r) => r.workflowId)).toEqual([a]);
  expect(live[0]?.input).toEqual({ n: 2 });
  // A day on, the hold is over and the TTL deletes the record.
  expect(await ttlSweep(expired, engine.clock.now() + 25 * HOUR)).toBe(true);
});
