/**
 * DO_WHILE without limits (issue 13): FORK and SUB_WORKFLOW inside a loop body, and keepLastN
 * deleting the rows of trimmed iterations (retried attempts included).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createQuickJsEvaluator, type ScriptEvaluator } from '../../../lib/engine/script/evaluator.ts';
import { type EngineHarness, engineHarness } from '../../helpers/engine.ts';
import { loop, ref, script, worker } from '../../helpers/fixtures.ts';

describe('DO_WHILE without limits', () => {
  let scripts: ScriptEvaluator;
  let h: EngineHarness;
  beforeAll(() => {
    scripts = createQuickJsEvaluator();
  });
  afterAll(() => scripts.close());
  beforeEach(async () => {
    h = await engineHarness({ scripts });
  });
  afterEach(() => h.close());

  const refs = async (id: string) => (await h.tasks(id)).map((t) => `${t.referenceTaskName}:${t.status}`);

  it('runs a FORK_JOIN in its body, each iteration forking and joining anew', async () => {
    await h.register({
      name: 'loop_fork',
      tasks: [
        loop(
          [
            {
              name: 'both',
              taskReferenceName: 'both',
              type: 'FORK_JOIN',
              forkTasks: [
                [script('a', '$.i', { i: ref('loop.output.iteration') })],
                [script('b', '$.i * 10', { i: ref('loop.output.iteration') })],
              ],
            },
            { name: 'j', taskReferenceName: 'j', type: 'JOIN', joinOn: ['a', 'b'] },
          ],
          '$.loop.iteration < 3',
        ),
      ],
      outputParameters: { last: ref('j.output') },
    });
    const id = await h.start('loop_fork');
    const run = await h.run(id);
    expect(run.status).toBe('COMPLETED');
    expect(run.output).toEqual({ last: { a__3: { result: 3 }, b__3: { result: 30 } } });
  });

  it('runs a SUB_WORKFLOW in its body, one child per iteration', async () => {
    await h.register({ name: 'loop_child', tasks: [worker('child_work')] });
    await h.register({
      name: 'loop_sub',
      tasks: [
        loop(
          [
            {
              name: 'sub',
              taskReferenceName: 'sub',
              type: 'SUB_WORKFLOW',
              subWorkflowParam: { name: 'loop_child' },
            },
          ],
          '$.loop.iteration < 2',
        ),
      ],
    });
    const id = await h.start('loop_sub');
    await h.work('child_work', { n: 1 });
    await h.work('child_work', { n: 2 });
    expect((await h.run(id)).status).toBe('COMPLETED');
  });

  it('deletes the rows of iterations keepLastN trims, retried attempts included', async () => {
    await h.registerTaskDefs([{ name: 'step', retryCount: 1, retryDelaySeconds: 0 }]);
    await h.register({
      name: 'loop_keep',
      tasks: [
        loop(
          [worker('step', { retryCount: 1 }), script('tick', '$.i', { i: ref('loop.output.iteration') })],
          '$.loop.iteration < 5',
          {
            inputParameters: { keepLastN: 2 },
          },
        ),
      ],
    });
    const id = await h.start('loop_keep');
    await h.work('step', {}, 'FAILED', 'flaky');
    for (let i = 1; i <= 5; i++) await h.work('step', { i });
    expect(await refs(id)).toEqual([
      'loop:COMPLETED',
      'step__4:COMPLETED',
      'tick__4:COMPLETED',
      'step__5:COMPLETED',
      'tick__5:COMPLETED',
    ]);
    const row = await h.task(id, 'loop');
    const view = row && (await h.services.engine.tasks.getTask(row.taskId));
    expect(Object.keys(view?.outputData ?? {}).sort()).toEqual(['4', '5', 'iteration']);
    expect((await h.run(id)).status).toBe('COMPLETED');
  });

  it('lets a later template read every iteration of the loop output', async () => {
    await h.register({
      name: 'loop_all_output',
      tasks: [
        loop([script('tick', '$.i', { i: ref('loop.output.iteration') })], '$.loop.iteration < 5'),
        script(
          'count',
          'Object.keys($.all).filter((k) => k !== "iteration").map((k) => $.all[k].tick.result)',
          {
            all: ref('loop.output'),
          },
        ),
      ],
      outputParameters: { seen: ref('count.output.result') },
    });
    const id = await h.start('loop_all_output');
    const run = await h.run(id);
    expect(run.status).toBe('COMPLETED');
    expect(run.output).toEqual({ seen: [1, 2, 3, 4, 5] });
  });

  it('gathers keepLastN iterations, no more, for later templates', async () => {
    await h.register({
      name: 'loop_keep_three',
      tasks: [
        loop([script('tick', '$.i', { i: ref('loop.output.iteration') })], '$.loop.iteration < 6', {
          inputParameters: { keepLastN: 3 },
        }),
        script('count', 'Object.keys($.all).filter((k) => k !== "iteration").length', {
          all: ref('loop.output'),
        }),
      ],
      outputParameters: { seen: ref('count.output.result') },
    });
    const id = await h.start('loop_keep_three');
    expect((await h.run(id)).output).toEqual({ seen: 3 });
  });

  it('runs a loop nested in a loop, naming inner tasks for both iterations', async () => {
    await h.register({
      name: 'loop_nested',
      tasks: [
        loop(
          [
            {
              name: 'inner',
              taskReferenceName: 'inner',
              type: 'DO_WHILE',
              loopCondition: '$.inner.iteration < 2',
              loopOver: [
                script('tick', '$.o * 10 + $.i', {
                  o: ref('loop.output.iteration'),
                  i: ref('inner.output.iteration'),
                }),
              ],
            },
          ],
          '$.loop.iteration < 3',
        ),
      ],
      outputParameters: { last: ref('tick.output.result'), outer: ref('loop.output') },
    });
    const id = await h.start('loop_nested');
    const run = await h.run(id);
    expect(run.status).toBe('COMPLETED');
    expect(await refs(id)).toEqual([
      'loop:COMPLETED',
      'inner__1:COMPLETED',
      'tick__1__1:COMPLETED',
      'tick__1__2:COMPLETED',
      'inner__2:COMPLETED',
      'tick__2__1:COMPLETED',
      'tick__2__2:COMPLETED',
      'inner__3:COMPLETED',
      'tick__3__1:COMPLETED',
      'tick__3__2:COMPLETED',
    ]);
    expect(run.output.last).toBe(32);
    const outer = run.output.outer as Record<string, { inner: Record<string, unknown> }>;
    expect(outer.iteration).toBe(3);
    expect(outer['2']?.inner).toMatchObject({
      iteration: 2,
      1: { tick: { result: 21 } },
      2: { tick: { result: 22 } },
    });
  });

  it('runs a worker task in a nested loop, each attempt polled under its own name', async () => {
    await h.register({
      name: 'loop_nested_worker',
      tasks: [
        loop(
          [
            {
              name: 'inner',
              taskReferenceName: 'inner',
              type: 'DO_WHILE',
              loopCondition: '$.inner.iteration < 2',
              loopOver: [worker('w')],
            },
          ],
          '$.loop.iteration < 2',
        ),
      ],
    });
    const id = await h.start('loop_nested_worker');
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) seen.push((await h.work('w', { i })).referenceTaskName);
    expect(seen).toEqual(['w__1__1', 'w__1__2', 'w__2__1', 'w__2__2']);
    expect((await h.run(id)).status).toBe('COMPLETED');
  });
});
