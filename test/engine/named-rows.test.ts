/**
 * Decides that read only the rows their requests name (Executor.decide): a worker's update asks for
 * a decide naming its task, and that decide reads just that row of the run's open tasks, so a fork
 * of N worker branches no longer reads N rows per completion. A row that changed unannounced (a
 * poll's claim) leaves the run's view of it older; when the decide then writes that task, the write
 * fails on the row's revision and the decide reads every row and decides on the truth.
 */
import { afterEach, expect, it } from 'vitest';
import { WHOLE_READ_MAX_OPEN } from '../../lib/engine/decide-read.ts';
import { FULL_READ_AFTER_MS } from '../../lib/engine/timeouts.ts';
import type { TaskRecord } from '../../lib/model/execution.ts';
import { createMemoryStores } from '../../lib/runtime/stores.ts';
import { type EngineHarness, engineHarness } from '../helpers/engine.ts';
import { simpleTask } from '../helpers/fixtures.ts';

const TYPE = 'pick_item';
// More than WHOLE_READ_MAX_OPEN open tasks: a smaller fork's decides read every row.
const BRANCHES = ['b1', 'b2', 'b3', 'b4', 'b5'];

let h: EngineHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A harness over memory stores whose row reads by id (getTasks) are recorded. */
async function setUp(taskDef: Record<string, unknown> = {}, branches = BRANCHES) {
  const stores = createMemoryStores();
  const reads: string[][] = [];
  const getTasks = stores.executions.getTasks.bind(stores.executions);
  stores.executions.getTasks = (workflowId, taskIds) => {
    reads.push([...taskIds]);
    return getTasks(workflowId, taskIds);
  };
  const engine = await engineHarness({ stores });
  h = engine;
  await engine.registerTaskDefs([{ name: TYPE, retryCount: 0, ...taskDef }]);
  await engine.register({
    name: 'fan_out',
    version: 1,
    tasks: [
      {
        name: 'fork',
        taskReferenceName: 'fork',
        type: 'FORK_JOIN',
        forkTasks: branches.map((ref) => [simpleTask(ref, { name: TYPE })]),
      },
      { name: 'join', taskReferenceName: 'join', type: 'JOIN', joinOn: branches },
    ],
  });
  const id = await engine.start('fan_out');
  // Every branch claimed by a worker: row writes no decide was asked about.
  const polled = new Map<string, TaskRecord>();
  for (let i = 0; i < branches.length; i++) {
    const task = await engine.poll(TYPE);
    if (task) polled.set(task.referenceTaskName, task);
  }
  expect([...polled.keys()].sort()).toEqual(branches);
  reads.length = 0;
  return { engine, id, reads, branch: (ref: string) => polled.get(ref) as TaskRecord };
}

it("reads just the updated task's row in the decide its update asks for", async () => {
  const { engine, id, reads, branch } = await setUp();
  await engine.complete(branch('b2'), { picked: 2 });
  expect(reads).toEqual([[branch('b2').taskId]]);
  expect((await engine.run(id)).status).toBe('RUNNING');

  const rest = ['b1', 'b3', 'b4', 'b5'];
  for (const ref of rest) await engine.complete(branch(ref), { picked: ref });
  const run = await engine.run(id);
  expect(run.status).toBe('COMPLETED');
  expect(run.tasks.find((t) => t.referenceTaskName === 'join')?.outputData).toEqual({
    b1: { picked: 'b1' },
    b2: { picked: 2 },
    b3: { picked: 'b3' },
    b4: { picked: 'b4' },
    b5: { picked: 'b5' },
  });
  // Each decide read the one row its update named, to the end of the fork.
  expect(reads).toEqual(['b2', ...rest].map((ref) => [branch(ref).taskId]));
});

it('reads a small fork whole: no run read in part, and no full-read wake-up to pay for', async () => {
  const small = BRANCHES.slice(0, WHOLE_READ_MAX_OPEN - 1);
  const { engine, id, reads, branch } = await setUp({}, small);
  const wakeAt = (await engine.run(id)).wakeAt;
  await engine.complete(branch('b2'), { picked: 2 });
  // The JOIN and the branches: every open task's row read, though the update named one.
  expect(reads).toEqual([expect.arrayContaining(small.map((ref) => branch(ref).taskId))]);
  const run = await engine.run(id);
  expect(run.partialSince).toBeUndefined();
  // The workers' response timeout, not a full read a minute on.
  expect(run.wakeAt).toBe(wakeAt);
  expect(wakeAt - engine.clock.now()).toBeGreaterThan(FULL_READ_AFTER_MS);
});

it('reads every row when a write over a row it did not read fails, and decides on the truth', async () => {
  const { engine, id, reads, branch } = await setUp();
  // b1 fails for good: the decide its update asks for fails the run, cancelling the other branches,
  // whose claims the run's view has not seen.
  await engine.complete(branch('b1'), {}, 'FAILED', 'out of stock');

  const run = await engine.run(id);
  expect(run.status).toBe('FAILED');
  const rows = new Map((await engine.tasks(id)).map((t) => [t.referenceTaskName, t]));
  expect(BRANCHES.map((ref) => rows.get(ref)?.status)).toEqual([
    'FAILED',
    'CANCELED',
    'CANCELED',
    'CANCELED',
    'CANCELED',
  ]);
  // The cancelled rows kept what their claims wrote (the worker and the poll count).
  expect(rows.get('b2')).toMatchObject({ workerId: 'test-worker', pollCount: 1 });
  expect(reads[0]).toEqual([branch('b1').taskId]);
  expect(reads[1]).toEqual(expect.arrayContaining(BRANCHES.slice(1).map((ref) => branch(ref).taskId)));
});

it("reads every row once the run's wake-up is due, so a dead worker's task still times out", async () => {
  const { engine, id, reads, branch } = await setUp({ responseTimeoutSeconds: 600 });
  expect((await engine.run(id)).wakeAt).toBe(engine.clock.now() + 600_000);
  // b1's worker dies. Its response timeout comes due, and before the wake-up's own decide runs,
  // b2's worker reports: that decide reads every row and times b1 out.
  engine.clock.advance(601_000);
  await engine.complete(branch('b2'), { picked: 2 });
  expect(reads[0]).toEqual(expect.arrayContaining(BRANCHES.map((ref) => branch(ref).taskId)));
  const rows = new Map((await engine.tasks(id)).map((t) => [t.referenceTaskName, t.status]));
  expect(BRANCHES.map((ref) => rows.get(ref))).toEqual([
    'TIMED_OUT',
    'COMPLETED',
    'CANCELED',
    'CANCELED',
    'CANCELED',
  ]);
  expect((await engine.run(id)).status).toBe('TIMED_OUT');
});

it('reads every row again once decides have read only named rows for a while, so a lost request is caught up', async () => {
  const { engine, id, reads, branch } = await setUp();
  await engine.complete(branch('b2'), { picked: 2 });
  expect((await engine.run(id)).partialSince).toBe(engine.clock.now());
  // b1's result is stored, and the decide it asks for is lost (the process died in between).
  const b1 = (await engine.task(id, 'b1')) as TaskRecord;
  const done = {
    ...b1,
    status: 'COMPLETED' as const,
    outputData: { picked: 1 },
    endTime: engine.clock.now(),
  };
  await engine.stores.executions.updateTask({ ...done, rev: b1.rev + 1 }, b1.rev);

  // b3's decide, still within the bound, reads only b3: the run waits on b1.
  engine.clock.advance(FULL_READ_AFTER_MS - 1_000);
  const b3 = branch('b3');
  await engine.services.engine.tasks.update({
    workflowInstanceId: id,
    taskId: b3.taskId,
    status: 'IN_PROGRESS',
    outputData: { picking: 3 },
  });
  await engine.settle();
  expect(reads.at(-1)).toEqual([b3.taskId]);
  expect((await engine.run(id)).status).toBe('RUNNING');

  // Past the bound, the next decide reads every open row, and finds b1 done.
  engine.clock.advance(1_000);
  await engine.complete(b3, { picked: 3 });
  expect(reads.at(-1)).toEqual(expect.arrayContaining([branch('b1').taskId, b3.taskId]));
  expect((await engine.run(id)).partialSince).toBeUndefined();
  await engine.complete(branch('b4'), { picked: 4 });
  await engine.complete(branch('b5'), { picked: 5 });
  const run = await engine.run(id);
  expect(run.status).toBe('COMPLETED');
  expect(run.partialSince).toBeUndefined();
  expect(run.tasks.find((t) => t.referenceTaskName === 'join')?.outputData).toMatchObject({
    b1: { picked: 1 },
  });
});

it("commits nothing for a worker's progress reports and callback requeues, which change no decision", async () => {
  const stores = createMemoryStores();
  const commits: number[] = [];
  const commit = stores.executions.commitWorkflow.bind(stores.executions);
  stores.executions.commitWorkflow = (record, rev) => {
    commits.push(rev);
    return commit(record, rev);
  };
  const engine = await engineHarness({ stores });
  h = engine;
  await engine.registerTaskDefs([{ name: TYPE, retryCount: 0 }]);
  await engine.register({
    name: 'long_pick',
    version: 1,
    tasks: [simpleTask('pick', { name: TYPE }), simpleTask('check', { name: TYPE })],
  });
  const id = await engine.start('long_pick');
  const pick = (await engine.poll(TYPE)) as TaskRecord;
  const report = (outputData: Record<string, unknown>, callbackAfterSeconds?: number) =>
    engine.services.engine.tasks.update({
      workflowInstanceId: id,
      taskId: pick.taskId,
      status: 'IN_PROGRESS',
      outputData,
      callbackAfterSeconds,
    });
  commits.length = 0;
  for (let percent = 20; percent <= 80; percent += 20) {
    engine.clock.advance(1_000);
    await report({ percent });
    await engine.settle();
  }
  // A report that hands the task back to its queue for 10 s decides nothing either.
  await report({ percent: 90 }, 10);
  await engine.settle();
  expect(commits).toEqual([]);
  expect((await engine.task(id, 'pick'))?.outputData).toEqual({ percent: 90 });
  expect(await engine.poll(TYPE)).toBeUndefined();
  engine.clock.advance(10_000);
  const again = (await engine.poll(TYPE)) as TaskRecord;
  expect(again.taskId).toBe(pick.taskId);

  await engine.complete(again, { percent: 100 });
  expect(commits).toHaveLength(1);
  await engine.work(TYPE, { checked: true });
  const run = await engine.run(id);
  expect(run.status).toBe('COMPLETED');
  expect(run.tasks.map((t) => t.outputData)).toEqual([{ percent: 100 }, { checked: true }]);
});
