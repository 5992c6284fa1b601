/**
 * DYNAMIC (docs/conductor-compat.md §5.3): a worker task named by an input value at run time, queued
 * and polled under that name; no name is a terminal error.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type EngineHarness, engineHarness } from '../../helpers/engine.ts';
import { ref } from '../../helpers/fixtures.ts';

describe('DYNAMIC', () => {
  let h: EngineHarness;
  beforeEach(async () => {
    h = await engineHarness();
    await h.register({
      name: 'dynamic_flow',
      tasks: [
        {
          name: 'pick',
          taskReferenceName: 'pick',
          type: 'DYNAMIC',
          dynamicTaskNameParam: 'taskToExecute',
          inputParameters: { taskToExecute: ref('workflow.input.kind'), n: ref('workflow.input.n') },
        },
      ],
      outputParameters: { out: ref('pick.output.done') },
    });
  });
  afterEach(() => h.close());

  it('queues a task of the resolved name, which a worker of that name completes', async () => {
    const id = await h.start('dynamic_flow', { kind: 'ship_order', n: 3 });
    const task = await h.task(id, 'pick');
    expect(task).toMatchObject({ taskType: 'ship_order', taskDefName: 'ship_order', status: 'SCHEDULED' });
    expect(task?.inputData).toMatchObject({ n: 3 });
    const polled = await h.work('ship_order', { done: 'yes' });
    expect(polled.referenceTaskName).toBe('pick');
    const run = await h.run(id);
    expect(run.status).toBe('COMPLETED');
    expect(run.output).toEqual({ out: 'yes' });
  });

  it('fails terminally when the input names no task', async () => {
    const id = await h.start('dynamic_flow', {});
    const task = await h.task(id, 'pick');
    expect(task?.status).toBe('FAILED_WITH_TERMINAL_ERROR');
    expect(task?.reasonForIncompletion).toContain('Cannot map a dynamic task');
    expect((await h.run(id)).status).toBe('FAILED');
  });

  it('registers only with a dynamicTaskNameParam', async () => {
    await expect(
      h.register({ name: 'dyn_missing', tasks: [{ name: 'd', taskReferenceName: 'd', type: 'DYNAMIC' }] }),
    ).rejects.toThrow(/dynamicTaskNameParam field is required/);
  });
});
