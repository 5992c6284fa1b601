/**
 * Pause and resume in the engine (docs/conductor-compat.md §3.1, §4.7): a paused run keeps what its
 * workers report but schedules nothing until resumed; it can still time out; resume restarts the
 * timeout clock and moves on at once. Also a pause racing a decide, both ways: neither update is lost.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WorkflowRecord } from '../../lib/model/execution.ts';
import { createMemoryStores } from '../../lib/runtime/stores.ts';
import type { Stores } from '../../lib/store/ports.ts';
import { type EngineHarness, engineHarness } from '../helpers/engine.ts';
import { ref } from '../helpers/fixtures.ts';

const chain = {
  name: 'paused_chain',
  tasks: [
    { name: 'pa', taskReferenceName: 'a', retryCount: 0 },
    { name: 'pb', taskReferenceName: 'b', retryCount: 0, inputParameters: { fromA: ref('a.output.v') } },
  ],
};

describe('pause and resume', () => {
  let h: EngineHarness;
  beforeEach(async () => {
    h = await engineHarness();
    await h.register(chain);
  });
  afterEach(() => h.close());

  it('stores a worker result while paused, schedules nothing, and moves on when resumed', async () => {
    const id = await h.start('paused_chain');
    const a = await h.poll('pa');
    if (!a) throw new Error('no task a');
    expect(await h.services.engine.operations.pause(id)).toBe(true);
    await h.settle();
    expect((await h.run(id)).status).toBe('PAUSED');

    await h.complete(a, { v: 7 });
    expect(await h.task(id, 'a')).toMatchObject({ status: 'COMPLETED', outputData: { v: 7 } });
    expect(await h.task(id, 'b')).toBeUndefined();
    expect(await h.poll('pb')).toBeUndefined();
    await h.services.engine.executor.decide(id);
    expect(await h.task(id, 'b')).toBeUndefined();

    h.clock.advance(5000);
    await h.services.engine.operations.resume(id);
    await h.settle();
    const resumed = await h.run(id);
    expect(resumed).toMatchObject({ status: 'RUNNING', lastRetriedTime: h.clock.now() });
    await h.work('pb', {});
    expect((await h.task(id, 'b'))?.inputData).toEqual({ fromA: 7 });
    expect((await h.run(id)).status).toBe('COMPLETED');
  });

  it('treats pausing a paused run as a no-op, and refuses ended runs and resuming a running one', async () => {
    const id = await h.start('paused_chain');
    const ops = h.services.engine.operations;
    await expect(ops.resume(id)).rejects.toThrow(
      'Workflow is RUNNING; only a PAUSED workflow can be resumed',
    );
    expect(await ops.pause(id)).toBe(true);
    // The decide requested at start may still be pending: let it commit before reading the rev.
    await h.settle();
    const rev = (await h.run(id)).rev;
    expect(await ops.pause(id)).toBe(false);
    expect((await h.run(id)).rev).toBe(rev);
    await ops.terminate(id, 'stop');
    await h.settle();
    await expect(ops.pause(id)).rejects.toThrow(
      'Workflow is TERMINATED; a TERMINATED workflow cannot be paused',
    );
    await expect(ops.resume(id)).rejects.toThrow(
      'Workflow is TERMINATED; only a PAUSED workflow can be resumed',
    );
    await expect(ops.pause('nope')).rejects.toThrow('No such workflow found by id: nope');
  });

  it('still times out while paused, and resume restarts the timeout clock', async () => {
    await h.register({ ...chain, name: 'paused_timeout', timeoutSeconds: 60, timeoutPolicy: 'TIME_OUT_WF' });
    const ops = h.services.engine.operations;

    const late = await h.start('paused_timeout');
    await ops.pause(late);
    await h.settle();
    await h.advance(60_000);
    expect((await h.run(late)).status).toBe('TIMED_OUT');

    const resumed = await h.start('paused_timeout');
    await ops.pause(resumed);
    await h.advance(50_000);
    await ops.resume(resumed);
    await h.settle();
    await h.advance(50_000);
    expect((await h.run(resumed)).status).toBe('RUNNING');
    await h.advance(10_000);
    expect((await h.run(resumed)).status).toBe('TIMED_OUT');
  });
});

/** Memory stores whose next run commit first calls `before` (once), to interleave two writers. */
function interleaving(): { stores: Stores; beforeNextCommit(hook: () => Promise<void>): void } {
  const stores = createMemoryStores();
  const executions = stores.executions;
  let hook: (() => Promise<void>) | undefined;
  const commitWorkflow = executions.commitWorkflow.bind(executions);
  executions.commitWorkflow = async (record: WorkflowRecord, expectedRev: number) => {
    const run = hook;
    hook = undefined;
    if (run) await run();
    return commitWorkflow(record, expectedRev);
  };
  return { stores, beforeNextCommit: (h) => (hook = h) };
}

describe('pause racing a decide', () => {
  let h: EngineHarness;
  let rig: ReturnType<typeof interleaving>;
  beforeEach(async () => {
    rig = interleaving();
    h = await engineHarness({ stores: rig.stores });
    await h.register(chain);
  });
  afterEach(() => h.close());

  it('a pause that commits while a decide is working wins; the decide re-reads and schedules nothing', async () => {
    const id = await h.start('paused_chain');
    const a = await h.poll('pa');
    if (!a) throw new Error('no task a');
    // The worker's completion asks for a decide; the pause lands between its read and its commit.
    rig.beforeNextCommit(async () => {
      expect(await h.services.engine.operations.pause(id)).toBe(true);
    });
    await h.complete(a, { v: 1 });
    const run = await h.run(id);
    expect(run.status).toBe('PAUSED');
    expect(run.tasks.map((t) => t.referenceTaskName)).toEqual(['a']);
    expect(await h.task(id, 'a')).toMatchObject({ status: 'COMPLETED', outputData: { v: 1 } });

    // The losing decide may have written b's row before its commit failed; resume adopts that row.
    await h.services.engine.operations.resume(id);
    await h.settle();
    await h.work('pb');
    expect((await h.tasks(id)).map((t) => t.referenceTaskName)).toEqual(['a', 'b']);
    expect((await h.run(id)).status).toBe('COMPLETED');
  });

  it('a decide that commits while a pause is working wins; the pause re-reads and still pauses', async () => {
    await h.register({
      ...chain,
      name: 'paused_triple',
      tasks: [...chain.tasks, { name: 'pc', taskReferenceName: 'c' }],
    });
    const id = await h.start('paused_triple');
    await h.work('pa', { v: 2 });
    const b = await h.poll('pb');
    if (!b) throw new Error('no task b');
    // The pause read the run; the worker's result and its decide (scheduling c) commit first.
    rig.beforeNextCommit(async () => {
      await h.complete(b, { done: true });
    });
    expect(await h.services.engine.operations.pause(id)).toBe(true);
    await h.settle();
    const run = await h.run(id);
    expect(run.status).toBe('PAUSED');
    expect(run.tasks.map((t) => [t.referenceTaskName, t.status])).toEqual([
      ['a', 'COMPLETED'],
      ['b', 'COMPLETED'],
      ['c', 'SCHEDULED'],
    ]);
    expect(await h.task(id, 'b')).toMatchObject({ status: 'COMPLETED', outputData: { done: true } });
  });
});
