/**
 * Terminate and remove as the API offers them (docs/conductor-compat.md §1.6, §4.7): terminate of an
 * ended run, the failure workflow on request, children terminated; remove and terminate-remove
 * leave no pollable task and no running child behind.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type EngineHarness, engineHarness } from '../helpers/engine.ts';
import { worker } from '../helpers/fixtures.ts';

describe('terminate and remove', () => {
  let h: EngineHarness;
  const failureRuns = async () => h.stores.executions.findWorkflows({ name: 'cleanup' });
  beforeEach(async () => {
    h = await engineHarness();
    await h.register({ name: 'cleanup', tasks: [worker('clean')] });
    await h.register({ name: 'guarded', failureWorkflow: 'cleanup', tasks: [worker('fragile')] });
    await h.register({ name: 'kid', tasks: [worker('kid_work')] });
    await h.register({
      name: 'family',
      tasks: [
        { name: 'kid', taskReferenceName: 'sub', type: 'SUB_WORKFLOW', subWorkflowParam: { name: 'kid' } },
      ],
    });
  });
  afterEach(() => h.close());

  it('terminates a FAILED run without a second failure workflow; a TERMINATED one is a no-op', async () => {
    const ops = h.services.engine.operations;
    const id = await h.start('guarded');
    await h.work('fragile', {}, 'FAILED', 'broke');
    expect((await h.run(id)).status).toBe('FAILED');
    expect(await failureRuns()).toHaveLength(1);
    expect(await ops.terminate(id, 'cleaned up')).toBe(true);
    await h.settle();
    expect(await h.run(id)).toMatchObject({ status: 'TERMINATED', reasonForIncompletion: 'cleaned up' });
    expect(await failureRuns()).toHaveLength(1);
    expect(await ops.terminate(id, 'again')).toBe(false);
    expect((await h.run(id)).reasonForIncompletion).toBe('cleaned up');
  });

  it('refuses a COMPLETED run and an unknown one', async () => {
    const ops = h.services.engine.operations;
    const id = await h.start('guarded');
    await h.work('fragile');
    await expect(ops.terminate(id, 'late')).rejects.toThrow('Cannot terminate a COMPLETED workflow.');
    await expect(ops.terminate('nope', 'x')).rejects.toThrow('No such workflow found by id: nope');
  });

  it('starts the failure workflow only when asked to', async () => {
    const ops = h.services.engine.operations;
    await ops.terminate(await h.start('guarded'), 'plain');
    await h.settle();
    expect(await failureRuns()).toEqual([]);
    const id = await h.start('guarded');
    await ops.terminate(id, 'with failure workflow', { triggerFailureWorkflow: true });
    await h.settle();
    const [failure] = await failureRuns();
    expect(failure?.input).toMatchObject({
      workflowId: id,
      failureStatus: 'TERMINATED',
      reason: 'with failure workflow',
    });
  });

  it('terminates the running child of a terminated parent', async () => {
    const parent = await h.start('family');
    const childId = (await h.task(parent, 'sub'))?.subWorkflowId as string;
    expect((await h.run(childId)).status).toBe('RUNNING');
    await h.services.engine.operations.terminate(parent, 'stop');
    await h.settle();
    expect((await h.run(childId)).status).toBe('TERMINATED');
    expect(await h.poll('kid_work')).toBeUndefined();
  });

  it("terminates a child when the decide its parent's terminate asked for was lost with a crash", async () => {
    const id = await h.start('family');
    const kid = (await h.task(id, 'sub'))?.subWorkflowId as string;
    // The process dies right after the terminate's commit: the decide it asks for never comes.
    const request = h.decisions.request.bind(h.decisions);
    h.decisions.request = (workflowId, delayMs) =>
      workflowId === id ? Promise.resolve() : request(workflowId, delayMs);
    await h.services.engine.operations.terminate(id, 'stop');
    await h.settle();
    expect((await h.run(kid)).status).toBe('RUNNING');

    h.decisions.request = request;
    // The commit left the run due: the next sweep decides it, and that decide ends the child.
    await h.advance(60_000);
    expect((await h.run(kid)).status).toBe('TERMINATED');
  });

  it('decides a terminated run once, not on every sweep: its wake-up is cleared', async () => {
    await h.registerTaskDefs([{ name: 'slow', retryCount: 0, responseTimeoutSeconds: 300 }]);
    await h.register({ name: 'timed', tasks: [{ name: 'slow', taskReferenceName: 'slow' }] });
    const id = await h.start('timed');
    await h.poll('slow');
    expect((await h.run(id)).wakeAt).toBeGreaterThan(0);
    await h.services.engine.operations.terminate(id, 'stop');
    await h.settle();
    // The terminate left the run due, so a crash cannot lose what follows its end; the decide that
    // does it (at the latest the next sweep's) clears it.
    await h.advance(60_000);
    expect((await h.run(id)).wakeAt).toBe(0);
    expect(await h.stores.executions.dueWakeups(h.clock.now() + 3600_000, 10)).toEqual([]);
  });

  it('removes a running run (archive=false): no task of it is handed out, its child is terminated', async () => {
    const ops = h.services.engine.operations;
    const parent = await h.start('family');
    const childId = (await h.task(parent, 'sub'))?.subWorkflowId as string;
    const id = await h.start('guarded');
    await expect(ops.remove(id)).rejects.toThrow(`Cannot archive workflow ${id}: it is still RUNNING`);
    await ops.remove(id, { archive: false });
    await ops.remove(parent, { archive: false });
    await h.settle();
    expect(await h.stores.executions.getWorkflow(id)).toBeUndefined();
    expect(await h.tasks(id)).toEqual([]);
    expect(await h.poll('fragile')).toBeUndefined();
    expect(await h.stores.queue.size('fragile')).toBe(0);
    expect((await h.run(childId)).status).toBe('TERMINATED');
    await expect(ops.remove(id)).rejects.toThrow(`No such workflow found by id: ${id}`);
  });

  it('removes an ended run with archiving, and terminate-removes a running one', async () => {
    const ops = h.services.engine.operations;
    const done = await h.start('guarded');
    await h.work('fragile');
    await ops.remove(done);
    expect(await h.stores.executions.getWorkflow(done)).toBeUndefined();

    const running = await h.start('guarded');
    await ops.terminateRemove(running, 'gone');
    await h.settle();
    expect(await h.stores.executions.getWorkflow(running)).toBeUndefined();
    expect(await h.poll('fragile')).toBeUndefined();
    expect(await failureRuns()).toEqual([]);
    await expect(ops.terminateRemove(running, 'again')).rejects.toThrow('No such workflow found by id');
  });

  /** A parent around a running child: both ids. */
  async function family(): Promise<{ id: string; kid: string }> {
    const id = await h.start('family');
    return { id, kid: (await h.task(id, 'sub'))?.subWorkflowId as string };
  }

  /**
   * Terminates a run, then does `next` before the decide the terminate asked for has run (its
   * requests held back, as a process that died before sending them would), then settles.
   */
  async function beforeTerminateDecide(workflowId: string, next: () => Promise<unknown>): Promise<void> {
    const request = h.decisions.request.bind(h.decisions);
    h.decisions.request = (id, delayMs) => (id === workflowId ? Promise.resolve() : request(id, delayMs));
    await h.services.engine.operations.terminate(workflowId, 'stop');
    await next();
    h.decisions.request = request;
    await h.settle();
  }

  it('decides a terminated run once: nothing of it is left open for a second decide', async () => {
    const id = await h.start('guarded');
    let decides = 0;
    const decide = h.services.engine.executor.decide.bind(h.services.engine.executor);
    h.services.engine.executor.decide = (workflowId, changed) => {
      if (workflowId === id) decides++;
      return decide(workflowId, changed);
    };
    await h.services.engine.operations.terminate(id, 'stop');
    await h.settle();
    await h.advance(60_000);
    expect(decides).toBe(1);
    const run = await h.run(id);
    expect(run.tasks.map((t) => t.status)).toEqual(['CANCELED']);
    expect(run.wakeAt).toBe(0);
  });

  it('removes a terminated parent whose decide has not run yet: its child is terminated all the same', async () => {
    const { id, kid } = await family();
    await beforeTerminateDecide(id, () => h.services.engine.operations.remove(id));
    expect((await h.run(kid)).status).toBe('TERMINATED');
  });

  it('removes a terminated child whose decide has not run yet: its parent is told', async () => {
    const { id, kid } = await family();
    await beforeTerminateDecide(kid, () => h.services.engine.operations.remove(kid));
    expect((await h.task(id, 'sub'))?.status).not.toBe('IN_PROGRESS');
    expect((await h.run(id)).status).not.toBe('RUNNING');
  });

  it('terminate-removes a running child: its parent is told', async () => {
    const { id, kid } = await family();
    await h.services.engine.operations.terminateRemove(kid, 'gone');
    await h.settle();
    expect(await h.stores.executions.getWorkflow(kid)).toBeUndefined();
    expect((await h.task(id, 'sub'))?.status).not.toBe('IN_PROGRESS');
    expect((await h.run(id)).status).not.toBe('RUNNING');
  });

  it('restarts a terminated parent whose decide has not run yet: its old child is terminated first', async () => {
    const { id, kid } = await family();
    await beforeTerminateDecide(id, () => h.services.engine.operations.restart(id));
    await h.services.engine.executor.decide(id);
    await h.settle();
    expect((await h.run(kid)).status).toBe('TERMINATED');
    expect((await h.run(id)).status).toBe('RUNNING');
  });
});
