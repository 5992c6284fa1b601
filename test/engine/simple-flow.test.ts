/**
 * A run of worker tasks end to end through the in-memory engine: scheduling, templating between
 * tasks, workflow output, and the cost of a decide staying flat.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type EngineHarness, engineHarness } from '../helpers/engine.ts';
import { ref } from '../helpers/fixtures.ts';

describe('a workflow of worker tasks', () => {
  let h: EngineHarness;
  beforeEach(async () => {
    h = await engineHarness();
    await h.register({
      name: 'two_steps',
      tasks: [
        { name: 'step_a', taskReferenceName: 'a', inputParameters: { x: ref('workflow.input.x') } },
        { name: 'step_b', taskReferenceName: 'b', inputParameters: { y: ref('a.output.doubled') } },
      ],
      outputParameters: { result: ref('b.output.result'), fromA: ref('a.output.doubled') },
    });
  });
  afterEach(() => h.close());

  it('schedules the first task with its input resolved from the workflow input', async () => {
    const id = await h.start('two_steps', { x: 21 });
    const polled = await h.poll('step_a');
    expect(polled?.inputData).toEqual({ x: 21 });
    expect(polled?.status).toBe('IN_PROGRESS');
    expect((await h.run(id)).status).toBe('RUNNING');
  });

  it('passes one task output into the next and completes with the output parameters', async () => {
    const id = await h.start('two_steps', { x: 21 });
    await h.work('step_a', { doubled: 42 });
    const b = await h.poll('step_b');
    expect(b?.inputData).toEqual({ y: 42 });
    if (!b) throw new Error('no b');
    await h.complete(b, { result: 'ok' });
    const run = await h.run(id);
    expect(run.status).toBe('COMPLETED');
    expect(run.output).toEqual({ result: 'ok', fromA: 42 });
    expect((await h.tasks(id)).map((t) => [t.referenceTaskName, t.status])).toEqual([
      ['a', 'COMPLETED'],
      ['b', 'COMPLETED'],
    ]);
  });

  it('keeps its stored wake-up while its tasks move on, so commits do not churn the wake-up index', async () => {
    const id = await h.start('two_steps', { x: 1 });
    const first = (await h.run(id)).wakeAt;
    expect(first).toBeGreaterThan(h.clock.now());
    h.clock.advance(1000);
    await h.work('step_a', { doubled: 2 });
    expect((await h.run(id)).wakeAt).toBe(first);
    await h.work('step_b', { result: 'r' });
    expect((await h.run(id)).wakeAt).toBe(0);
  });

  it('ignores an update to a task that is already completed', async () => {
    const id = await h.start('two_steps', { x: 1 });
    const a = await h.work('step_a', { doubled: 2 });
    await h.complete(a, { doubled: 99 }, 'FAILED');
    expect((await h.task(id, 'a'))?.outputData).toEqual({ doubled: 2 });
    expect((await h.task(id, 'a'))?.status).toBe('COMPLETED');
  });

  it('hands a task back to the queue when a worker reports IN_PROGRESS with a callback', async () => {
    const id = await h.start('two_steps', { x: 1 });
    const a = await h.poll('step_a');
    if (!a) throw new Error('no a');
    await h.services.engine.tasks.update({
      workflowInstanceId: id,
      taskId: a.taskId,
      status: 'IN_PROGRESS',
      callbackAfterSeconds: 30,
    });
    await h.settle();
    expect((await h.task(id, 'a'))?.status).toBe('SCHEDULED');
    expect(await h.poll('step_a')).toBeUndefined();
    h.clock.advance(30_000);
    const again = await h.poll('step_a');
    expect(again?.taskId).toBe(a.taskId);
    expect(again?.pollCount).toBe(2);
  });
});
