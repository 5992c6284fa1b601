/**
 * FORK_JOIN and JOIN through the in-memory engine (docs/conductor-compat.md §5.7): parallel branches,
 * the JOIN gathering their outputs, failures, optional branches, nesting, and the mandatory JOIN.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type EngineHarness, engineHarness } from '../../helpers/engine.ts';
import { fork, join, ref, worker } from '../../helpers/fixtures.ts';

describe('FORK_JOIN and JOIN', () => {
  let h: EngineHarness;
  beforeEach(async () => {
    h = await engineHarness();
  });
  afterEach(() => h.close());

  async function statuses(id: string): Promise<Record<string, string>> {
    return Object.fromEntries((await h.tasks(id)).map((t) => [t.referenceTaskName, t.status]));
  }

  it('schedules a completed FORK marker, the first task of every branch and an in-progress JOIN at once', async () => {
    await h.register({
      name: 'fan_out',
      tasks: [
        fork('fan', [[worker('a1'), worker('a2')], [worker('b1')], [worker('c1')]], {
          inputParameters: { source: ref('workflow.input.source') },
        }),
        join('fan_join', ['a2', 'b1', 'c1']),
      ],
    });
    const id = await h.start('fan_out', { source: 'catalog' });
    const tasks = await h.tasks(id);
    expect(tasks.map((t) => [t.referenceTaskName, t.taskType, t.status])).toEqual([
      ['fan', 'FORK', 'COMPLETED'],
      ['a1', 'a1', 'SCHEDULED'],
      ['b1', 'b1', 'SCHEDULED'],
      ['c1', 'c1', 'SCHEDULED'],
      ['fan_join', 'JOIN', 'IN_PROGRESS'],
    ]);
    const marker = tasks[0];
    expect(marker?.inputData).toEqual({ source: 'catalog' });
    expect(tasks.find((t) => t.referenceTaskName === 'fan_join')?.inputData).toEqual({
      joinOn: ['a2', 'b1', 'c1'],
    });
    expect(
      tasks.filter((t) => ['a1', 'b1', 'c1'].includes(t.referenceTaskName)).map((t) => t.parentTaskId),
    ).toEqual([marker?.taskId, marker?.taskId, marker?.taskId]);
  });

  it('completes the JOIN with every branch output once all branches are done, then runs the next task', async () => {
    await h.register({
      name: 'fan_in',
      tasks: [
        fork('fan', [[worker('a1'), worker('a2')], [worker('b1')]]),
        join('fan_join', ['a2', 'b1']),
        worker('after', { inputParameters: { joined: ref('fan_join.output') } }),
      ],
    });
    const id = await h.start('fan_in');
    await h.work('b1', { fromB: 1 });
    await h.work('a1', { fromA1: true });
    expect((await h.task(id, 'fan_join'))?.status).toBe('IN_PROGRESS');
    expect((await h.task(id, 'fan_join'))?.outputData).toEqual({ b1: { fromB: 1 } });
    expect(await h.poll('after')).toBeUndefined();

    await h.work('a2', { fromA2: 2 });
    const joined = await h.task(id, 'fan_join');
    expect(joined?.status).toBe('COMPLETED');
    expect(joined?.outputData).toEqual({ a2: { fromA2: 2 }, b1: { fromB: 1 } });
    const after = await h.poll('after');
    expect(after?.inputData).toEqual({ joined: { a2: { fromA2: 2 }, b1: { fromB: 1 } } });
    if (!after) throw new Error('no after task');
    await h.complete(after, { done: true });
    const run = await h.run(id);
    expect(run.status).toBe('COMPLETED');
    expect(run.output).toEqual({ done: true });
  });

  it('fails the run and cancels the JOIN when a branch task fails with no retries left', async () => {
    await h.register({
      name: 'fan_fail',
      tasks: [fork('fan', [[worker('a')], [worker('b')]]), join('fan_join', ['a', 'b'])],
    });
    const id = await h.start('fan_fail');
    await h.work('a', {}, 'FAILED', 'disk full');
    const run = await h.run(id);
    expect(run.status).toBe('FAILED');
    expect(run.reasonForIncompletion).toContain('disk full');
    expect(run.failedReferenceTaskNames).toEqual(['a']);
    expect(await statuses(id)).toMatchObject({ a: 'FAILED', b: 'CANCELED', fan_join: 'CANCELED' });
  });

  it('fails the JOIN with the reason once every branch is over when a permissive branch task failed', async () => {
    await h.register({
      name: 'fan_permissive',
      tasks: [
        fork('fan', [[worker('a', { permissive: true })], [worker('b')]]),
        join('fan_join', ['a', 'b']),
        worker('after'),
      ],
    });
    const id = await h.start('fan_permissive');
    await h.work('a', {}, 'FAILED', 'upstream said no');
    expect((await h.task(id, 'fan_join'))?.status).toBe('IN_PROGRESS');
    expect((await h.run(id)).status).toBe('RUNNING');

    await h.work('b', { ok: true });
    const joined = await h.task(id, 'fan_join');
    expect(joined?.status).toBe('FAILED');
    expect(joined?.reasonForIncompletion).toBe('upstream said no');
    const run = await h.run(id);
    expect(run.status).toBe('FAILED');
    expect(run.reasonForIncompletion).toContain('upstream said no');
    expect(await h.poll('after')).toBeUndefined();
  });

  it('waits for the retry of a failed branch task instead of failing the JOIN', async () => {
    // `a` comes second in its branch, so it is scheduled after the JOIN and the JOIN looks first.
    await h.register({
      name: 'fan_retry',
      tasks: [
        fork('fan', [[worker('a0'), worker('a', { retryCount: 1 })], [worker('b')]]),
        join('fan_join', ['a', 'b']),
      ],
    });
    await h.registerTaskDefs([{ name: 'a', retryCount: 1, retryDelaySeconds: 0 }]);
    const id = await h.start('fan_retry');
    await h.work('a0');
    await h.work('b', { b: 1 });
    await h.work('a', {}, 'FAILED', 'flaky');
    expect((await h.task(id, 'fan_join'))?.status).toBe('IN_PROGRESS');
    await h.work('a', { a: 2 });
    expect((await h.task(id, 'fan_join'))?.status).toBe('COMPLETED');
    expect((await h.task(id, 'fan_join'))?.outputData).toEqual({ a: { a: 2 }, b: { b: 1 } });
    expect((await h.run(id)).status).toBe('COMPLETED');
  });

  it('completes the JOIN with errors when an optional branch task failed, and the run goes on', async () => {
    await h.register({
      name: 'fan_optional',
      tasks: [
        fork('fan', [[worker('a0'), worker('a', { optional: true })], [worker('b')]]),
        join('fan_join', ['a', 'b']),
        worker('after'),
      ],
    });
    const id = await h.start('fan_optional');
    await h.work('b', { b: true });
    await h.work('a0');
    await h.work('a', {}, 'FAILED', 'not important');
    expect((await h.task(id, 'a'))?.status).toBe('COMPLETED_WITH_ERRORS');
    expect((await h.task(id, 'fan_join'))?.status).toBe('COMPLETED_WITH_ERRORS');
    await h.work('after', { finished: 1 });
    expect((await h.run(id)).status).toBe('COMPLETED');
  });

  it('runs a fork nested inside a fork branch, joining inner and outer in turn', async () => {
    await h.register({
      name: 'fan_nested',
      tasks: [
        fork('outer', [
          [
            fork('inner', [[worker('x')], [worker('y')]]),
            join('inner_join', ['x', 'y']),
            worker('after_inner'),
          ],
          [worker('z')],
        ]),
        join('outer_join', ['after_inner', 'z']),
        worker('last'),
      ],
    });
    const id = await h.start('fan_nested');
    expect(await statuses(id)).toEqual({
      outer: 'COMPLETED',
      inner: 'COMPLETED',
      x: 'SCHEDULED',
      y: 'SCHEDULED',
      inner_join: 'IN_PROGRESS',
      z: 'SCHEDULED',
      outer_join: 'IN_PROGRESS',
    });
    await h.work('x', { x: 1 });
    await h.work('z', { z: 3 });
    expect(await h.poll('after_inner')).toBeUndefined();
    await h.work('y', { y: 2 });
    expect((await h.task(id, 'inner_join'))?.outputData).toEqual({ x: { x: 1 }, y: { y: 2 } });
    expect((await h.task(id, 'outer_join'))?.status).toBe('IN_PROGRESS');
    await h.work('after_inner', { inner: 'done' });
    expect((await h.task(id, 'outer_join'))?.outputData).toEqual({
      after_inner: { inner: 'done' },
      z: { z: 3 },
    });
    await h.work('last');
    expect((await h.run(id)).status).toBe('COMPLETED');
  });

  it('joins on the current iteration of its branches when the fork runs inside a loop', async () => {
    await h.register({
      name: 'fan_in_loop',
      tasks: [
        {
          name: 'loop',
          taskReferenceName: 'loop',
          type: 'DO_WHILE',
          loopCondition: "if ($.loop['iteration'] < 2) { true; } else { false; }",
          loopOver: [fork('fan', [[worker('a')], [worker('b')]]), join('fan_join', ['a', 'b'])],
        },
      ],
    });
    const id = await h.start('fan_in_loop');
    await h.work('a', { round: 1 });
    await h.work('b', { round: 1 });
    const second = await h.task(id, 'fan_join__2');
    expect(second?.inputData).toEqual({ joinOn: ['a__2', 'b__2'] });
    expect(second?.status).toBe('IN_PROGRESS');
    await h.work('a', { round: 2 });
    await h.work('b', { round: 2 });
    expect((await h.task(id, 'fan_join__2'))?.outputData).toEqual({ a__2: { round: 2 }, b__2: { round: 2 } });
    expect((await h.task(id, 'fan_join__1'))?.outputData).toEqual({ a__1: { round: 1 }, b__1: { round: 1 } });
    expect((await h.run(id)).status).toBe('COMPLETED');
  });

  it('completes a JOIN with an empty joinOn at once, without waiting for the branches', async () => {
    await h.register({
      name: 'fan_empty_join',
      tasks: [fork('fan', [[worker('a')]]), join('fan_join', []), worker('after')],
    });
    const id = await h.start('fan_empty_join');
    expect((await h.task(id, 'fan_join'))?.status).toBe('COMPLETED');
    expect(await statuses(id)).toMatchObject({ a: 'SCHEDULED', after: 'SCHEDULED' });
  });

  it('fails the run when a FORK_JOIN is not directly followed by a JOIN', async () => {
    await h.register({
      name: 'fan_no_join',
      tasks: [fork('fan', [[worker('a')], [worker('b')]]), worker('not_a_join')],
    });
    const id = await h.start('fan_no_join');
    const run = await h.run(id);
    expect(run.status).toBe('FAILED');
    expect(run.reasonForIncompletion).toContain('Fork task definition is not followed by a join task');
    expect((await h.tasks(id)).map((t) => [t.referenceTaskName, t.status])).toEqual([
      ['fan', 'FAILED_WITH_TERMINAL_ERROR'],
    ]);
    expect(await h.poll('a')).toBeUndefined();
  });
});
