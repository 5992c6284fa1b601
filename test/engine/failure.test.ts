/**
 * How a run deals with a task that failed for good (docs/conductor-compat.md §3, §4.3, §4.4, §4.6):
 * optional and permissive tasks, the failure workflow, and worker updates that arrive too late.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type EngineHarness, engineHarness } from '../helpers/engine.ts';
import { ref } from '../helpers/fixtures.ts';

describe('optional and permissive tasks', () => {
  let h: EngineHarness;
  beforeEach(async () => {
    h = await engineHarness();
    await h.registerTaskDefs([
      { name: 'once', retryCount: 1, retryDelaySeconds: 0 },
      { name: 'never', retryCount: 0 },
    ]);
  });
  afterEach(() => h.close());

  it('marks an optional task COMPLETED_WITH_ERRORS after its retries and completes the run', async () => {
    await h.register({
      name: 'optional_flow',
      tasks: [
        { name: 'once', taskReferenceName: 'a', optional: true },
        { name: 'never', taskReferenceName: 'b', inputParameters: { aStatus: ref('a.status') } },
      ],
    });
    const id = await h.start('optional_flow');
    await h.work('once', {}, 'FAILED', 'first');
    expect(await h.task(id, 'b')).toBeUndefined();
    await h.work('once', { partial: 1 }, 'FAILED', 'second');

    const a = await h.task(id, 'a');
    expect(a).toMatchObject({ status: 'COMPLETED_WITH_ERRORS', retryCount: 1, outputData: { partial: 1 } });
    const b = await h.poll('never');
    expect(b?.inputData).toEqual({ aStatus: 'COMPLETED_WITH_ERRORS' });
    if (!b) throw new Error('b not scheduled');
    await h.complete(b, { done: true });

    const run = await h.run(id);
    expect(run.status).toBe('COMPLETED');
    expect(run.output).toEqual({ done: true });
  });

  it('lets the run go on past a failed permissive task, then fails it at the end', async () => {
    await h.register({
      name: 'permissive_flow',
      tasks: [
        { name: 'never', taskReferenceName: 'a', permissive: true },
        { name: 'once', taskReferenceName: 'b' },
      ],
    });
    const id = await h.start('permissive_flow');
    const a = await h.work('never', {}, 'FAILED', 'tolerated');
    expect((await h.run(id)).status).toBe('RUNNING');
    expect((await h.task(id, 'a'))?.status).toBe('FAILED');

    await h.work('once', { fine: true });
    const run = await h.run(id);
    expect(run.status).toBe('FAILED');
    expect(run.reasonForIncompletion).toBe(
      `Task ${a.taskId} failed with status: FAILED and reason: 'tolerated'`,
    );
    expect(run.failedReferenceTaskNames).toEqual(['a']);
    expect((await h.task(id, 'b'))?.status).toBe('COMPLETED');
  });
});

describe('the failure workflow', () => {
  let h: EngineHarness;
  beforeEach(async () => {
    h = await engineHarness();
    await h.registerTaskDefs([{ name: 'fragile', retryCount: 0 }]);
    await h.register({ name: 'cleanup', tasks: [{ name: 'clean', taskReferenceName: 'c' }] });
    await h.register({
      name: 'guarded',
      failureWorkflow: 'cleanup',
      tasks: [{ name: 'fragile', taskReferenceName: 'a' }],
    });
  });
  afterEach(() => h.close());

  const failureRuns = () => h.stores.executions.findWorkflows({ name: 'cleanup' });

  it("starts with the failed run's input plus what failed", async () => {
    const id = await h.start('guarded', { orderId: 'o-1' }, { correlationId: 'corr-9' });
    const a = await h.work('fragile', {}, 'FAILED', 'broken');

    const [failure, ...more] = await failureRuns();
    expect(more).toEqual([]);
    if (!failure) throw new Error('no failure workflow');
    const reason = `Task ${a.taskId} failed with status: FAILED and reason: 'broken'`;
    expect(failure.input).toMatchObject({
      orderId: 'o-1',
      workflowId: id,
      reason,
      failureStatus: 'FAILED',
      failureTaskId: a.taskId,
    });
    expect(failure.input.failedWorkflow).toMatchObject({
      workflowId: id,
      status: 'FAILED',
      input: { orderId: 'o-1' },
    });
    expect(failure.correlationId).toBe('corr-9');
    expect(failure.status).toBe('RUNNING');
    expect((await h.poll('clean'))?.workflowInstanceId).toBe(failure.workflowId);
  });

  it('is not started a second time when the failed run is decided again', async () => {
    const id = await h.start('guarded');
    const a = await h.work('fragile', {}, 'FAILED', 'broken');
    await h.services.engine.executor.decide(id);
    await h.complete(a, {}, 'FAILED', 'late duplicate');
    await h.advance(60_000);
    await h.services.engine.executor.decide(id);
    expect(await failureRuns()).toHaveLength(1);
  });

  it('is started on a later decide when starting it failed the first time', async () => {
    await h.register({
      name: 'guarded_late',
      failureWorkflow: 'late_cleanup',
      tasks: [{ name: 'fragile', taskReferenceName: 'a' }],
    });
    const id = await h.start('guarded_late');
    // The failure workflow is not registered yet, so starting it fails (and is logged).
    await h.work('fragile', {}, 'FAILED', 'broken');
    expect((await h.run(id)).status).toBe('FAILED');
    expect(await h.stores.executions.findWorkflows({ name: 'late_cleanup' })).toEqual([]);

    await h.register({ name: 'late_cleanup', tasks: [{ name: 'clean', taskReferenceName: 'c' }] });
    await h.services.engine.executor.decide(id);
    await h.services.engine.executor.decide(id);
    const started = await h.stores.executions.findWorkflows({ name: 'late_cleanup' });
    expect(started).toHaveLength(1);
    expect(started[0]?.input).toMatchObject({ workflowId: id, failureStatus: 'FAILED' });
  });

  it('is not started for a run ended by the terminate operation', async () => {
    const id = await h.start('guarded');
    await h.poll('fragile');
    expect(await h.services.engine.operations.terminate(id, 'operator stop')).toBe(true);
    await h.settle();
    await h.services.engine.executor.decide(id);
    expect((await h.run(id)).status).toBe('TERMINATED');
    expect(await failureRuns()).toEqual([]);
  });

  it('is not started when the run completes', async () => {
    await h.start('guarded');
    await h.work('fragile', { ok: true });
    expect(await failureRuns()).toEqual([]);
  });

  it('carries TIMED_OUT as the failure status when the run timed out', async () => {
    await h.register({
      name: 'guarded_timeout',
      failureWorkflow: 'cleanup',
      timeoutSeconds: 30,
      timeoutPolicy: 'TIME_OUT_WF',
      tasks: [{ name: 'fragile', taskReferenceName: 'a' }],
    });
    const id = await h.start('guarded_timeout');
    await h.advance(30_000);
    const [failure] = await failureRuns();
    expect(failure?.input).toMatchObject({ workflowId: id, failureStatus: 'TIMED_OUT' });
  });
});

describe('worker updates that arrive after the end', () => {
  let h: EngineHarness;
  beforeEach(async () => {
    h = await engineHarness();
    await h.register({
      name: 'short_lived',
      timeoutSeconds: 30,
      timeoutPolicy: 'TIME_OUT_WF',
      tasks: [{ name: 'slow', taskReferenceName: 'a' }],
    });
  });
  afterEach(() => h.close());

  it('accepts and ignores an update to a task the engine canceled when the run timed out', async () => {
    const id = await h.start('short_lived');
    const a = await h.poll('slow');
    if (!a) throw new Error('no task');
    await h.advance(30_000);
    expect((await h.run(id)).status).toBe('TIMED_OUT');
    expect((await h.task(id, 'a'))?.status).toBe('CANCELED');

    const answer = await h.services.engine.tasks.update({
      workflowInstanceId: id,
      taskId: a.taskId,
      status: 'COMPLETED',
      outputData: { late: true },
    });
    await h.settle();
    expect(answer).toBeUndefined();
    expect(await h.task(id, 'a')).toMatchObject({ status: 'CANCELED', outputData: {} });
    expect((await h.run(id)).status).toBe('TIMED_OUT');
  });

  it('accepts and ignores an update that arrives after the run was terminated', async () => {
    const id = await h.start('short_lived');
    const a = await h.poll('slow');
    if (!a) throw new Error('no task');
    // Terminating cancels the open task rows before the run's status changes (§4.7).
    expect(await h.services.engine.operations.terminate(id, 'stop')).toBe(true);
    expect(await h.task(id, 'a')).toMatchObject({ status: 'CANCELED' });

    const answer = await h.services.engine.tasks.update({
      workflowInstanceId: id,
      taskId: a.taskId,
      status: 'COMPLETED',
      outputData: { late: true },
    });
    await h.settle();
    expect(answer).toBeUndefined();
    expect(await h.task(id, 'a')).toMatchObject({ status: 'CANCELED', outputData: {} });
    const run = await h.run(id);
    expect(run.status).toBe('TERMINATED');
    expect(run.reasonForIncompletion).toBe('stop');
  });
});
