/**
 * SUB_WORKFLOW through the in-memory engine (docs/conductor-compat.md §5.10, §4.6): the child run and
 * its deterministic id, the links both ways, the child's end reflected on the parent's task, the
 * child terminated when the parent ends first, inline child definitions, and no second child when
 * the parent's decide runs again.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WorkflowRecord } from '../../../lib/model/execution.ts';
import { childWorkflowIdOf } from '../../../lib/model/ids.ts';
import { createMemoryStores } from '../../../lib/runtime/stores.ts';
import type { Stores } from '../../../lib/store/ports.ts';
import { type EngineHarness, engineHarness } from '../../helpers/engine.ts';
import { type Json, ref, worker } from '../../helpers/fixtures.ts';

const childDef: Json = {
  name: 'child_flow',
  tasks: [worker('child_step', { inputParameters: { item: ref('workflow.input.item') } })],
  outputParameters: { answer: ref('child_step.output.answer') },
};

const subWorkflow = (subWorkflowParam: Json): Json => ({
  name: 'call_child',
  taskReferenceName: 'call_child',
  type: 'SUB_WORKFLOW',
  inputParameters: { item: ref('workflow.input.item') },
  subWorkflowParam,
});

/** Memory stores whose first commit of a decided `runName` run fails, as if the process died just before it. */
function storesCrashingFirstCommitOf(runName: string): Stores {
  const inner = createMemoryStores();
  let armed = true;
  const executions = new Proxy(inner.executions, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      if (prop !== 'commitWorkflow') return value.bind(target);
      return async (record: WorkflowRecord, rev: number) => {
        if (armed && record.workflowName === runName && record.tasks.length > 0) {
          armed = false;
          throw new Error('simulated crash before the commit');
        }
        return target.commitWorkflow(record, rev);
      };
    },
  });
  return { ...inner, executions, close: () => inner.close() };
}

const afterChild = worker('after_child', { inputParameters: { answer: ref('call_child.output.answer') } });

describe('SUB_WORKFLOW', () => {
  let h: EngineHarness;
  beforeEach(async () => {
    h = await engineHarness();
    await h.register(childDef);
    await h.register({ name: 'parent_flow', tasks: [subWorkflow({ name: 'child_flow' }), afterChild] });
  });
  afterEach(() => h.close());

  async function childOf(parentId: string): Promise<string> {
    const task = await h.task(parentId, 'call_child');
    if (!task?.subWorkflowId) throw new Error('no child started');
    return task.subWorkflowId;
  }

  it('starts the child with a deterministic id, linked to its parent task both ways', async () => {
    const parentId = await h.start('parent_flow', { item: 'book' }, { correlationId: 'order-7' });
    const task = await h.task(parentId, 'call_child');
    if (!task) throw new Error('no SUB_WORKFLOW task');
    const childId = childWorkflowIdOf(parentId, task.taskId);
    expect(task.status).toBe('IN_PROGRESS');
    expect(task.subWorkflowId).toBe(childId);
    expect(task.outputData).toEqual({ subWorkflowId: childId });
    expect(task.inputData).toMatchObject({ subWorkflowName: 'child_flow', workflowInput: { item: 'book' } });

    const child = await h.run(childId);
    expect(child.status).toBe('RUNNING');
    expect(child.parentWorkflowId).toBe(parentId);
    expect(child.parentWorkflowTaskId).toBe(task.taskId);
    expect(child.input).toEqual({ item: 'book' });
    expect(child.correlationId).toBe('order-7');
    expect((await h.poll('child_step'))?.inputData).toEqual({ item: 'book' });
  });

  it('completes the parent task with the child output merged in when the child completes', async () => {
    const parentId = await h.start('parent_flow', { item: 'book' });
    const childId = await childOf(parentId);
    await h.work('child_step', { answer: 42 });
    expect((await h.run(childId)).status).toBe('COMPLETED');
    const task = await h.task(parentId, 'call_child');
    expect(task?.status).toBe('COMPLETED');
    expect(task?.outputData).toEqual({ subWorkflowId: childId, answer: 42 });
    expect((await h.poll('after_child'))?.inputData).toEqual({ answer: 42 });
  });

  it('fails the parent task, and with no retries the parent run, when the child fails', async () => {
    const parentId = await h.start('parent_flow', { item: 'book' });
    const childId = await childOf(parentId);
    await h.work('child_step', {}, 'FAILED', 'out of stock');
    expect((await h.run(childId)).status).toBe('FAILED');
    const task = await h.task(parentId, 'call_child');
    expect(task?.status).toBe('FAILED');
    expect(task?.retryCount).toBe(0);
    expect(task?.reasonForIncompletion).toContain(`Sub workflow ${childId} failure reason:`);
    expect(task?.reasonForIncompletion).toContain('out of stock');
    const parent = await h.run(parentId);
    expect(parent.status).toBe('FAILED');
    expect(parent.failedReferenceTaskNames).toEqual(['call_child']);
    expect(await h.tasks(parentId)).toHaveLength(1);
  });

  it.each([
    ['a TERMINATE in a parallel branch', (): Promise<unknown> => h.work('gate'), 'TERMINATED'],
    ['a failing task in a parallel branch', (): Promise<unknown> => h.work('gate', {}, 'FAILED'), 'FAILED'],
  ])('terminates the running child when %s ends the parent', async (_how, endParent, parentStatus) => {
    await h.register({
      name: 'parent_with_fork',
      tasks: [
        {
          name: 'fan',
          taskReferenceName: 'fan',
          type: 'FORK_JOIN',
          forkTasks: [
            [subWorkflow({ name: 'child_flow' })],
            [
              worker('gate'),
              {
                name: 'stop',
                taskReferenceName: 'stop',
                type: 'TERMINATE',
                inputParameters: { terminationStatus: 'TERMINATED' },
              },
            ],
          ],
        },
        { name: 'fan_join', taskReferenceName: 'fan_join', type: 'JOIN', joinOn: ['call_child', 'stop'] },
      ],
    });
    const parentId = await h.start('parent_with_fork', { item: 'lamp' });
    const childId = await childOf(parentId);
    expect((await h.run(childId)).status).toBe('RUNNING');

    await endParent();
    await h.settle();
    expect((await h.run(parentId)).status).toBe(parentStatus);
    expect((await h.task(parentId, 'call_child'))?.status).toBe('CANCELED');
    const child = await h.run(childId);
    expect(child.status).toBe('TERMINATED');
    expect(child.reasonForIncompletion).toContain(`Parent workflow ${parentId} ended`);
    expect((await h.task(childId, 'child_step'))?.status).toBe('CANCELED');
    expect(await h.poll('child_step')).toBeUndefined();
  });

  it('runs an inline child definition that was never registered', async () => {
    await h.register({
      name: 'parent_inline',
      tasks: [
        subWorkflow({
          name: 'inline_child',
          workflowDefinition: {
            name: 'inline_child',
            version: 1,
            tasks: [worker('inline_step')],
            outputParameters: { answer: ref('inline_step.output.value') },
          },
        }),
        afterChild,
      ],
    });
    const parentId = await h.start('parent_inline', { item: 'x' });
    const child = await h.run(await childOf(parentId));
    expect(child.workflowName).toBe('inline_child');
    expect(child.input).toEqual({ item: 'x' });
    await h.work('inline_step', { value: 'inline!' });
    expect((await h.task(parentId, 'call_child'))?.status).toBe('COMPLETED');
    expect((await h.poll('after_child'))?.inputData).toEqual({ answer: 'inline!' });
  });

  it('runs the requested version of the child definition', async () => {
    await h.register({ ...childDef, version: 2, outputParameters: { answer: 'from version 2' } });
    await h.register({ name: 'parent_v1', tasks: [subWorkflow({ name: 'child_flow', version: 1 })] });
    const parentId = await h.start('parent_v1', { item: 'y' });
    expect((await h.run(await childOf(parentId))).workflowVersion).toBe(1);
    await h.work('child_step', { answer: 'from version 1' });
    expect((await h.run(parentId)).output).toMatchObject({ answer: 'from version 1' });
  });

  it('starts no second child when the parent is decided again', async () => {
    const parentId = await h.start('parent_flow', { item: 'book' });
    const childId = await childOf(parentId);
    await h.services.engine.executor.decide(parentId);
    await h.services.engine.executor.decide(parentId);
    await h.settle();
    const children = await h.stores.executions.findWorkflows({ name: 'child_flow' });
    expect(children.map((c) => c.workflowId)).toEqual([childId]);
    expect((await h.tasks(parentId)).map((t) => t.referenceTaskName)).toEqual(['call_child']);
  });

  it('starts no second child when a parent decide that died before its commit runs again', async () => {
    const crashing = await engineHarness({ stores: storesCrashingFirstCommitOf('parent_flow') });
    try {
      await crashing.register(childDef);
      await crashing.register({
        name: 'parent_flow',
        tasks: [subWorkflow({ name: 'child_flow' }), afterChild],
      });
      const parentId = await crashing.start('parent_flow', { item: 'book' });
      expect((await crashing.run(parentId)).tasks).toEqual([]);
      const started = await crashing.stores.executions.findWorkflows({ name: 'child_flow' });
      expect(started).toHaveLength(1);

      await crashing.services.engine.executor.decide(parentId);
      await crashing.settle();
      const children = await crashing.stores.executions.findWorkflows({ name: 'child_flow' });
      expect(children.map((c) => c.workflowId)).toEqual([started[0]?.workflowId]);
      expect((await crashing.task(parentId, 'call_child'))?.subWorkflowId).toBe(started[0]?.workflowId);
      await crashing.work('child_step', { answer: 1 });
      expect((await crashing.poll('after_child'))?.inputData).toEqual({ answer: 1 });
    } finally {
      await crashing.close();
    }
  });

  it('passes a signal sent to the parent on to a WAIT in the running child', async () => {
    await h.register({
      name: 'waiting_child',
      tasks: [{ name: 'hold', taskReferenceName: 'hold', type: 'WAIT', inputParameters: {} }],
      outputParameters: { answer: ref('hold.output.answer') },
    });
    await h.register({
      name: 'parent_of_waiter',
      tasks: [subWorkflow({ name: 'waiting_child' }), afterChild],
    });
    const parentId = await h.start('parent_of_waiter');
    const childId = await childOf(parentId);
    const signaled = await h.services.engine.tasks.signal(parentId, 'COMPLETED', { answer: 'go' });
    await h.settle();
    expect(signaled?.workflowInstanceId).toBe(childId);
    expect((await h.run(childId)).status).toBe('COMPLETED');
    expect((await h.poll('after_child'))?.inputData).toEqual({ answer: 'go' });
  });
});
