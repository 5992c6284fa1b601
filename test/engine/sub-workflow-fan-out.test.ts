/**
 * A fork of SUB_WORKFLOW branches: each child's end is told to the parent by a notice naming the
 * parent's task (Executor.notifyParent), and the parent's decide reads that row alone, so a fan-out
 * of N children reads no N child records per decide. A notice lost with a crash is caught up by the
 * first decide that reads every row again: a plain or due one, at the latest the wake-up the run
 * gets FULL_READ_AFTER_MS after its decides began reading only named rows.
 */
import { afterEach, expect, it } from 'vitest';
import { FULL_READ_AFTER_MS } from '../../lib/engine/timeouts.ts';
import type { TaskRecord } from '../../lib/model/execution.ts';
import { createMemoryStores } from '../../lib/runtime/stores.ts';
import { type EngineHarness, engineHarness } from '../helpers/engine.ts';
import { type Json, ref, worker } from '../helpers/fixtures.ts';

let h: EngineHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const child = (ref_: string): Json => ({
  name: `call_${ref_}`,
  taskReferenceName: ref_,
  type: 'SUB_WORKFLOW',
  inputParameters: { item: ref_ },
  subWorkflowParam: { name: 'pack_item' },
});

/** A parent forking `branches` children, each waiting on one worker task; record reads counted by id. */
async function setUp(branches: string[]) {
  const stores = createMemoryStores();
  const runReads = new Map<string, number>();
  const getWorkflow = stores.executions.getWorkflow.bind(stores.executions);
  stores.executions.getWorkflow = (workflowId) => {
    runReads.set(workflowId, (runReads.get(workflowId) ?? 0) + 1);
    return getWorkflow(workflowId);
  };
  const engine = await engineHarness({ stores });
  h = engine;
  await engine.register({
    name: 'pack_item',
    tasks: [worker('pack', { inputParameters: { item: ref('workflow.input.item') } })],
    outputParameters: { packed: ref('pack.output.packed') },
  });
  await engine.register({
    name: 'pack_order',
    tasks: [
      {
        name: 'fork',
        taskReferenceName: 'fork',
        type: 'FORK_JOIN',
        forkTasks: branches.map((b) => [child(b)]),
      },
      { name: 'join', taskReferenceName: 'join', type: 'JOIN', joinOn: branches },
    ],
  });
  const id = await engine.start('pack_order');
  const claimed = new Map<string, TaskRecord>();
  for (const _ of branches) {
    const task = await engine.poll('pack');
    if (task) claimed.set(String(task.inputData.item), task);
  }
  expect([...claimed.keys()].sort()).toEqual([...branches].sort());
  const childId = async (branch: string) => (await engine.task(id, branch))?.subWorkflowId as string;
  return { engine, id, runReads, claimed, childId };
}

/** A run TERMINATED by a commit whose process died before the decide that follows (its parent untold). */
async function terminatedUntold(engine: EngineHarness, workflowId: string): Promise<void> {
  const run = await engine.run(workflowId);
  const now = engine.clock.now();
  await engine.stores.executions.commitWorkflow(
    { ...run, status: 'TERMINATED', endTime: now, updateTime: now, rev: run.rev + 1 },
    run.rev,
  );
}

it("reads each child's record as often however late it ends: no child is read per sibling's end", async () => {
  const branches = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'];
  const { engine, id, runReads, claimed, childId } = await setUp(branches);
  const children = await Promise.all(branches.map(childId));
  runReads.clear();

  for (const branch of branches) await engine.complete(claimed.get(branch) as TaskRecord, { packed: branch });

  const run = await engine.run(id);
  expect(run.status).toBe('COMPLETED');
  expect(run.tasks.find((t) => t.referenceTaskName === 'join')?.outputData).toMatchObject({
    c1: { packed: 'c1' },
    c6: { packed: 'c6' },
  });
  // The child that ended last was open through five of the parent's decides, yet read no more often
  // than the first: the parent's decides read the rows their notices name, not every open child.
  const reads = children.map((c) => runReads.get(c) ?? 0);
  expect(new Set(reads).size).toBe(1);
  expect(reads[0]).toBeGreaterThan(0);
});

it('catches up on a child whose end its parent was never told, by the wake-up a full read is due at', async () => {
  // More than WHOLE_READ_MAX_OPEN open tasks: a smaller fork's decides read every row.
  const branches = ['c1', 'c2', 'c3', 'c4', 'c5'];
  const { engine, id, claimed, childId } = await setUp(branches);
  // c1's child is terminated and the process dies before anyone tells the parent.
  await terminatedUntold(engine, await childId('c1'));

  // Its siblings end well within the bound, and nothing else happens to the run after them.
  await engine.complete(claimed.get('c2') as TaskRecord, { packed: 'c2' });
  engine.clock.advance(FULL_READ_AFTER_MS / 2);
  for (const branch of ['c3', 'c4', 'c5']) {
    await engine.complete(claimed.get(branch) as TaskRecord, { packed: branch });
  }
  // The decides their notices asked for read their rows only: the parent still waits on c1.
  expect((await engine.task(id, 'c1'))?.status).toBe('IN_PROGRESS');
  const waiting = await engine.run(id);
  expect(waiting.status).toBe('RUNNING');
  // A SUB_WORKFLOW has no timeout here: the run's wake-up is the full read's alone.
  expect(waiting.wakeAt).toBe((waiting.partialSince as number) + FULL_READ_AFTER_MS);

  // Time alone brings that decide (the timer, or the sweeper), and it reads every row and c1's child.
  await engine.advance(FULL_READ_AFTER_MS / 2);
  expect((await engine.task(id, 'c1'))?.status).not.toBe('IN_PROGRESS');
  const run = await engine.run(id);
  expect(run.status).not.toBe('RUNNING');
  expect(run.partialSince).toBeUndefined();
});

it("tells the parent when a terminate of its child is repeated after a crash lost the first one's decide", async () => {
  const { engine, id, childId } = await setUp(['c1', 'c2']);
  const kid = await childId('c1');
  // The first terminate committed, and its process died before the decide that tells the parent.
  await terminatedUntold(engine, kid);
  // The caller retries: the run is already TERMINATED (no change), and its decide is asked for again.
  expect(await engine.services.engine.operations.terminate(kid, 'retried')).toBe(false);
  await engine.settle();
  expect((await engine.task(id, 'c1'))?.status).not.toBe('IN_PROGRESS');
  expect((await engine.run(id)).status).not.toBe('RUNNING');
});

it("commits nothing in the parent when an ended child's notice is told again", async () => {
  const { engine, id, claimed, childId } = await setUp(['c1', 'c2']);
  await engine.complete(claimed.get('c1') as TaskRecord, { packed: 'c1' });
  expect((await engine.task(id, 'c1'))?.status).toBe('COMPLETED');
  const rev = (await engine.run(id)).rev;
  // The child is decided again (a late timer, a redelivered request): it tells its parent again.
  await engine.decisions.request(await childId('c1'));
  await engine.settle();
  expect((await engine.run(id)).rev).toBe(rev);

  await engine.complete(claimed.get('c2') as TaskRecord, { packed: 'c2' });
  expect((await engine.run(id)).status).toBe('COMPLETED');
});
