/**
 * TERMINATE through the in-memory engine (docs/conductor-compat.md §5.14, §4.6): the run ends at
 * once with the requested status and output, other pending work is canceled, and an unsuccessful
 * end starts the failure workflow.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type EngineHarness, engineHarness } from '../../helpers/engine.ts';
import { type Json, ref, terminate, worker } from '../../helpers/fixtures.ts';

describe('TERMINATE', () => {
  let h: EngineHarness;
  beforeEach(async () => {
    h = await engineHarness();
    await h.register({ name: 'on_failure', tasks: [worker('cleanup')] });
  });
  afterEach(() => h.close());

  /** Registers a run of `first`, then the TERMINATE, then a task that must never run. */
  async function startTerminating(inputParameters: Json, extra: Json = {}): Promise<string> {
    await h.register({
      name: 'terminating',
      tasks: [worker('first'), terminate(inputParameters), worker('never')],
      ...extra,
    });
    const id = await h.start('terminating', { order: 42 });
    await h.work('first', { total: 99 });
    return id;
  }

  it('completes the run with the workflowOutput map as its output and a default reason', async () => {
    const id = await startTerminating({
      terminationStatus: 'COMPLETED',
      workflowOutput: { total: ref('first.output.total'), order: ref('workflow.input.order') },
    });
    const run = await h.run(id);
    const stop = await h.task(id, 'stop');
    expect(run.status).toBe('COMPLETED');
    expect(run.output).toEqual({ total: 99, order: 42 });
    expect(stop?.status).toBe('COMPLETED');
    expect(stop?.outputData).toEqual({ total: 99, order: 42 });
    expect(run.reasonForIncompletion).toBe(`Workflow is COMPLETED by TERMINATE task: ${stop?.taskId}`);
    expect(await h.task(id, 'never')).toBeUndefined();
  });

  it('wraps a workflowOutput that is not a map as {output: value}', async () => {
    const id = await startTerminating({
      terminationStatus: 'COMPLETED',
      workflowOutput: ref('first.output.total'),
    });
    expect((await h.run(id)).output).toEqual({ output: 99 });
  });

  it('fails the run with the given reason and starts the failure workflow with what failed', async () => {
    const id = await startTerminating(
      { terminationStatus: 'FAILED', terminationReason: 'order rejected', workflowOutput: { code: 'E42' } },
      { failureWorkflow: 'on_failure' },
    );
    const run = await h.run(id);
    const stop = await h.task(id, 'stop');
    expect(run.status).toBe('FAILED');
    expect(run.reasonForIncompletion).toBe('order rejected');
    expect(run.output).toEqual({ code: 'E42' });
    expect(stop?.status).toBe('COMPLETED');

    const failureRuns = await h.stores.executions.findWorkflows({ name: 'on_failure' });
    expect(failureRuns).toHaveLength(1);
    expect(failureRuns[0]?.input).toMatchObject({
      order: 42,
      workflowId: id,
      reason: 'order rejected',
      failureStatus: 'FAILED',
      failureTaskId: stop?.taskId,
    });
    expect(failureRuns[0]?.correlationId).toBe(run.correlationId);
    expect(await h.poll('cleanup')).toBeDefined();
  });

  it('ends the run TERMINATED with the default reason and also starts the failure workflow', async () => {
    const id = await startTerminating({ terminationStatus: 'TERMINATED' }, { failureWorkflow: 'on_failure' });
    const run = await h.run(id);
    const stop = await h.task(id, 'stop');
    expect(run.status).toBe('TERMINATED');
    expect(run.reasonForIncompletion).toBe(`Workflow is TERMINATED by TERMINATE task: ${stop?.taskId}`);
    expect(run.output).toEqual({});
    const failureRuns = await h.stores.executions.findWorkflows({ name: 'on_failure' });
    expect(failureRuns.map((r) => r.input.failureStatus)).toEqual(['TERMINATED']);
  });

  it('starts no failure workflow when it completes the run', async () => {
    await startTerminating({ terminationStatus: 'COMPLETED' }, { failureWorkflow: 'on_failure' });
    expect(await h.stores.executions.findWorkflows({ name: 'on_failure' })).toEqual([]);
  });

  it('cancels the tasks still pending in other fork branches', async () => {
    await h.register({
      name: 'terminate_in_fork',
      tasks: [
        {
          name: 'fan',
          taskReferenceName: 'fan',
          type: 'FORK_JOIN',
          forkTasks: [[worker('slow')], [worker('gate'), terminate({ terminationStatus: 'COMPLETED' })]],
        },
        { name: 'fan_join', taskReferenceName: 'fan_join', type: 'JOIN', joinOn: ['slow', 'stop'] },
      ],
    });
    const id = await h.start('terminate_in_fork');
    await h.work('gate');
    expect((await h.run(id)).status).toBe('COMPLETED');
    expect((await h.tasks(id)).map((t) => [t.referenceTaskName, t.status])).toEqual([
      ['fan', 'COMPLETED'],
      ['slow', 'CANCELED'],
      ['gate', 'COMPLETED'],
      ['fan_join', 'CANCELED'],
      ['stop', 'COMPLETED'],
    ]);
    expect(await h.poll('slow')).toBeUndefined();
  });
});
