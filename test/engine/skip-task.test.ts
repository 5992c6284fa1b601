/**
 * Skipping a task (docs/conductor-compat.md §4.7 skiptask): a SKIPPED row for a reference not yet
 * scheduled, which the flow jumps over when it reaches it, with `${ref.output}` reading the output
 * supplied; and the preconditions (RUNNING, known reference, not scheduled yet).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type EngineHarness, engineHarness } from '../helpers/engine.ts';
import { fork, join, ref, worker } from '../helpers/fixtures.ts';

describe('skip task', () => {
  let h: EngineHarness;
  beforeEach(async () => {
    h = await engineHarness();
    await h.register({
      name: 'skippable',
      tasks: [worker('sa'), worker('sb'), worker('sc', { inputParameters: { fromB: ref('sb.output.v') } })],
      outputParameters: { b: ref('sb.output.v') },
    });
  });
  afterEach(() => h.close());

  it('jumps over a skipped task; later tasks read its supplied output', async () => {
    const id = await h.start('skippable');
    await h.services.engine.operations.skipTask(id, 'sb', {
      taskInput: { i: 1 },
      taskOutput: { v: 'given' },
    });
    await h.settle();
    expect(await h.task(id, 'sb')).toMatchObject({
      status: 'SKIPPED',
      inputData: { i: 1 },
      outputData: { v: 'given' },
    });
    // Not reached yet: the run waits on sa, and sc is not scheduled early.
    expect(await h.task(id, 'sc')).toBeUndefined();
    await h.work('sa');
    expect(await h.poll('sb')).toBeUndefined();
    await h.work('sc');
    expect((await h.task(id, 'sc'))?.inputData).toEqual({ fromB: 'given' });
    const run = await h.run(id);
    expect(run).toMatchObject({ status: 'COMPLETED', output: { b: 'given' } });
    expect((await h.tasks(id)).map((t) => [t.referenceTaskName, t.status])).toEqual([
      ['sa', 'COMPLETED'],
      ['sb', 'SKIPPED'],
      ['sc', 'COMPLETED'],
    ]);
  });

  it('skips the last task, and the run completes when the flow reaches it', async () => {
    const id = await h.start('skippable');
    await h.services.engine.operations.skipTask(id, 'sc', {});
    await h.work('sa');
    await h.work('sb', { v: 3 });
    expect((await h.run(id)).status).toBe('COMPLETED');
  });

  it('skips a task in a fork branch, and the join counts it as done', async () => {
    await h.register({
      name: 'skip_fork',
      tasks: [
        worker('first'),
        fork('f', [[worker('left')], [worker('right')]]),
        join('j', ['left', 'right']),
      ],
    });
    const id = await h.start('skip_fork');
    await h.services.engine.operations.skipTask(id, 'right', { taskOutput: { r: 1 } });
    await h.work('first');
    await h.work('left', { l: 1 });
    const run = await h.run(id);
    expect(run.status).toBe('COMPLETED');
    expect((await h.task(id, 'j'))?.outputData).toEqual({ left: { l: 1 }, right: { r: 1 } });
  });

  it('refuses a task already scheduled, an unknown reference, a fork or join, and a run not RUNNING', async () => {
    const ops = h.services.engine.operations;
    const id = await h.start('skippable');
    await expect(ops.skipTask(id, 'sa')).rejects.toThrow(
      `Task sa is already scheduled in workflow ${id}; only a task not scheduled yet can be skipped`,
    );
    await expect(ops.skipTask(id, 'nope')).rejects.toThrow(
      'Task nope not found in workflow definition skippable',
    );
    await ops.skipTask(id, 'sb');
    await expect(ops.skipTask(id, 'sb')).rejects.toThrow('Task sb is already scheduled');
    await ops.pause(id);
    await expect(ops.skipTask(id, 'sc')).rejects.toThrow(
      'Workflow is PAUSED; a task can be skipped only in a RUNNING workflow',
    );
    await expect(ops.skipTask('nope', 'sc')).rejects.toThrow('No such workflow found by id: nope');

    await h.register({
      name: 'skip_fork_refused',
      tasks: [worker('first'), fork('f', [[worker('left')]]), join('j', ['left'])],
    });
    const forked = await h.start('skip_fork_refused');
    await expect(ops.skipTask(forked, 'f')).rejects.toThrow('Task f is a FORK_JOIN, which cannot be skipped');
    await expect(ops.skipTask(forked, 'j')).rejects.toThrow('Task j is a JOIN, which cannot be skipped');
  });
});
