/**
 * Retries of failed tasks (docs/conductor-compat.md §4.3): the delay table, what a new attempt looks
 * like, when no retry happens, and how the run fails once retries are exhausted.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { retryDelaySeconds } from '../../lib/engine/retry.ts';
import type { TaskDef } from '../../lib/model/definitions.ts';
import { type EngineHarness, engineHarness } from '../helpers/engine.ts';
import { ref } from '../helpers/fixtures.ts';

function def(overrides: Partial<TaskDef>): TaskDef {
  return {
    name: 'work',
    retryCount: 3,
    retryLogic: 'FIXED',
    retryDelaySeconds: 10,
    backoffScaleFactor: 1,
    timeoutSeconds: 0,
    timeoutPolicy: 'TIME_OUT_WF',
    responseTimeoutSeconds: 3600,
    ...overrides,
  };
}

describe('retryDelaySeconds', () => {
  it('waits the same retryDelaySeconds before every attempt with FIXED', () => {
    const fixed = def({ retryLogic: 'FIXED', retryDelaySeconds: 10 });
    expect([0, 1, 2, 5].map((n) => retryDelaySeconds(fixed, n))).toEqual([10, 10, 10, 10]);
  });

  it('doubles the delay with each failed attempt with EXPONENTIAL_BACKOFF', () => {
    const exponential = def({ retryLogic: 'EXPONENTIAL_BACKOFF', retryDelaySeconds: 10 });
    expect([0, 1, 2, 3].map((n) => retryDelaySeconds(exponential, n))).toEqual([10, 20, 40, 80]);
  });

  it('grows the delay by base x scale for each attempt with LINEAR_BACKOFF', () => {
    const linear = def({ retryLogic: 'LINEAR_BACKOFF', retryDelaySeconds: 10, backoffScaleFactor: 2 });
    expect([0, 1, 2].map((n) => retryDelaySeconds(linear, n))).toEqual([20, 40, 60]);
  });

  it('caps the computed delay at maxRetryDelaySeconds when that is set', () => {
    const capped = def({
      retryLogic: 'EXPONENTIAL_BACKOFF',
      retryDelaySeconds: 10,
      maxRetryDelaySeconds: 25,
    });
    expect([0, 1, 2, 3].map((n) => retryDelaySeconds(capped, n))).toEqual([10, 20, 25, 25]);
  });

  it('ignores a maxRetryDelaySeconds of 0', () => {
    const uncapped = def({
      retryLogic: 'EXPONENTIAL_BACKOFF',
      retryDelaySeconds: 10,
      maxRetryDelaySeconds: 0,
    });
    expect(retryDelaySeconds(uncapped, 4)).toBe(160);
  });

  it('clamps an overflowing exponential delay to the largest int instead of Infinity', () => {
    const huge = def({ retryLogic: 'EXPONENTIAL_BACKOFF', retryDelaySeconds: 10 });
    expect(retryDelaySeconds(huge, 2000)).toBe(2_147_483_647);
  });

  it('adds between 0 and backoffJitterMs of random jitter after the cap', () => {
    const jittery = def({ retryDelaySeconds: 10, maxRetryDelaySeconds: 5, backoffJitterMs: 1000 });
    expect(retryDelaySeconds(jittery, 0, () => 0)).toBe(5);
    expect(retryDelaySeconds(jittery, 0, () => 0.5)).toBe(5.5);
    expect(retryDelaySeconds(jittery, 0, () => 0.999_999)).toBe(6);
  });

  it('never calls the random source when there is no jitter', () => {
    const noJitter = def({ retryDelaySeconds: 10 });
    expect(
      retryDelaySeconds(noJitter, 0, () => {
        throw new Error('random used');
      }),
    ).toBe(10);
  });
});

describe('retrying a failed worker task', () => {
  let h: EngineHarness;
  beforeEach(async () => {
    h = await engineHarness();
    await h.registerTaskDefs([
      { name: 'flaky', retryCount: 2, retryDelaySeconds: 10, retryLogic: 'EXPONENTIAL_BACKOFF' },
    ]);
    await h.register({
      name: 'retrying',
      tasks: [
        {
          name: 'flaky',
          taskReferenceName: 'a',
          inputParameters: { x: ref('workflow.input.x'), me: ref('CPEWF_TASK_ID') },
        },
      ],
    });
  });
  afterEach(() => h.close());

  it('replaces a failed attempt with a new row that points back to it and keeps the old one as retried', async () => {
    const id = await h.start('retrying', { x: 7 });
    const first = await h.work('flaky', {}, 'FAILED', 'boom');

    const rows = await h.tasks(id);
    expect(rows).toHaveLength(2);
    const [old, next] = rows;
    expect(old).toMatchObject({ taskId: first.taskId, status: 'FAILED', retried: true, retryCount: 0 });
    expect(next).toMatchObject({
      referenceTaskName: 'a',
      status: 'SCHEDULED',
      retryCount: 1,
      retriedTaskId: first.taskId,
      pollCount: 0,
      reasonForIncompletion: 'boom',
      callbackAfterSeconds: 10,
    });
    expect(next?.taskId).not.toBe(first.taskId);
    expect((await h.run(id)).status).toBe('RUNNING');
  });

  it('re-resolves the input of the new attempt, so it sees its own task id', async () => {
    const id = await h.start('retrying', { x: 7 });
    const first = await h.work('flaky', {}, 'FAILED', 'boom');
    expect(first.inputData).toEqual({ x: 7, me: first.taskId });
    const next = await h.task(id, 'a');
    expect(next?.inputData).toEqual({ x: 7, me: next?.taskId });
  });

  it('keeps each new attempt out of the queue until its exponential delay has passed', async () => {
    await h.start('retrying', { x: 1 });
    await h.work('flaky', {}, 'FAILED', 'first');

    await h.advance(9_999);
    expect(await h.poll('flaky')).toBeUndefined();
    await h.advance(1);
    const second = await h.poll('flaky');
    expect(second?.retryCount).toBe(1);
    if (!second) throw new Error('second attempt not pollable');
    await h.complete(second, {}, 'FAILED', 'second');

    await h.advance(19_999);
    expect(await h.poll('flaky')).toBeUndefined();
    await h.advance(1);
    expect((await h.poll('flaky'))?.retryCount).toBe(2);
  });

  it('fails the run with Conductor reason text once the retries are exhausted', async () => {
    const id = await h.start('retrying', { x: 1 });
    await h.work('flaky', {}, 'FAILED', 'one');
    await h.advance(10_000);
    await h.work('flaky', {}, 'FAILED', 'two');
    await h.advance(20_000);
    const last = await h.work('flaky', { partial: true }, 'FAILED', 'three');

    const run = await h.run(id);
    expect(run.status).toBe('FAILED');
    expect(run.reasonForIncompletion).toBe(
      `Task ${last.taskId} failed with status: FAILED and reason: 'three'`,
    );
    expect(run.failedReferenceTaskNames).toEqual(['a']);
    expect(run.failedTaskNames).toEqual(['flaky']);
    expect((await h.tasks(id)).map((t) => [t.retryCount, t.status, t.retried])).toEqual([
      [0, 'FAILED', true],
      [1, 'FAILED', true],
      [2, 'FAILED', false],
    ]);
  });

  it('never retries FAILED_WITH_TERMINAL_ERROR, even with retries left', async () => {
    const id = await h.start('retrying', { x: 1 });
    const task = await h.work('flaky', {}, 'FAILED_WITH_TERMINAL_ERROR', 'fatal');
    const run = await h.run(id);
    expect(run.status).toBe('FAILED');
    expect(run.reasonForIncompletion).toBe(
      `Task ${task.taskId} failed with status: FAILED_WITH_TERMINAL_ERROR and reason: 'fatal'`,
    );
    expect(await h.tasks(id)).toHaveLength(1);
  });

  it('ends the run TERMINATED when a worker reports CANCELED, without a retry', async () => {
    const id = await h.start('retrying', { x: 1 });
    await h.work('flaky', {}, 'CANCELED', 'gone');
    expect((await h.run(id)).status).toBe('TERMINATED');
    expect(await h.tasks(id)).toHaveLength(1);
  });
});

describe('how many retries a task gets', () => {
  let h: EngineHarness;
  beforeEach(async () => {
    h = await engineHarness();
  });
  afterEach(() => h.close());

  it("lets the workflow task's retryCount override the task definition's", async () => {
    await h.registerTaskDefs([{ name: 'twice', retryCount: 2, retryDelaySeconds: 0 }]);
    await h.register({
      name: 'no_retry',
      tasks: [{ name: 'twice', taskReferenceName: 'a', retryCount: 0 }],
    });
    const id = await h.start('no_retry');
    await h.work('twice', {}, 'FAILED', 'once');
    expect((await h.run(id)).status).toBe('FAILED');
    expect(await h.tasks(id)).toHaveLength(1);
  });

  it('grants more retries than the definition when the workflow task asks for them', async () => {
    await h.registerTaskDefs([{ name: 'never', retryCount: 0, retryDelaySeconds: 0 }]);
    await h.register({
      name: 'one_retry',
      tasks: [{ name: 'never', taskReferenceName: 'a', retryCount: 1 }],
    });
    const id = await h.start('one_retry');
    await h.work('never', {}, 'FAILED', 'first');
    expect((await h.task(id, 'a'))?.retryCount).toBe(1);
    await h.work('never', { ok: true });
    expect((await h.run(id)).status).toBe('COMPLETED');
  });

  it('gives a worker task without a registered definition 3 retries, 60 seconds apart', async () => {
    await h.register({ name: 'ad_hoc', tasks: [{ name: 'unregistered', taskReferenceName: 'a' }] });
    const id = await h.start('ad_hoc');
    for (let attempt = 0; attempt < 3; attempt++) {
      await h.work('unregistered', {}, 'FAILED', `attempt ${attempt}`);
      await h.advance(59_999);
      expect(await h.poll('unregistered')).toBeUndefined();
      await h.advance(1);
    }
    await h.work('unregistered', {}, 'FAILED', 'attempt 3');
    expect((await h.run(id)).status).toBe('FAILED');
    expect(await h.tasks(id)).toHaveLength(4);
  });
});
