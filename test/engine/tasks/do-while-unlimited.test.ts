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

  it('lets a later template read every iteration of ${loop.output}', async () => {
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
});
