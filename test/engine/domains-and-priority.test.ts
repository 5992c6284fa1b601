/**
 * Task domains and workflow priority through the in-memory engine (docs/conductor-compat.md §4.1
 * queue names `[domain:]taskType`, §4.2 step 8 domains, §2.5 priority as `workflowPriority`).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../lib/model/execution.ts';
import { type EngineHarness, engineHarness } from '../helpers/engine.ts';

describe('task domains', () => {
  let h: EngineHarness;

  /** Polls one task of the type from the queue of a domain, as a worker started with that domain would. */
  const pollIn = async (taskType: string, domain: string): Promise<TaskRecord | undefined> => {
    const [task] = await h.services.engine.tasks.poll(taskType, {
      domain,
      count: 1,
      timeoutMs: 0,
      workerId: `${domain}-worker`,
    });
    return task;
  };

  const mustPollIn = async (taskType: string, domain: string): Promise<TaskRecord> => {
    const task = await pollIn(taskType, domain);
    if (!task) throw new Error(`no ${taskType} task in domain ${domain}`);
    return task;
  };

  const queues = () => h.services.engine.tasks.allQueues();

  beforeEach(async () => {
    h = await engineHarness();
    await h.register({
      name: 'domained',
      tasks: [
        {
          name: 'shape',
          taskReferenceName: 'shape',
          type: 'INLINE',
          inputParameters: { evaluatorType: 'javascript', expression: '1 + 1' },
        },
        { name: 'step_a', taskReferenceName: 'a' },
        { name: 'step_b', taskReferenceName: 'b' },
      ],
    });
  });
  afterEach(() => h.close());

  it('queues a task mapped to a domain in the domain:taskType queue, out of reach of a plain poll', async () => {
    await h.start('domained', {}, { taskToDomain: { step_a: 'blue' } });
    expect(await queues()).toEqual({ 'blue:step_a': 1 });
    expect(await h.poll('step_a')).toBeUndefined();
    expect(await pollIn('step_a', 'green')).toBeUndefined();
  });

  it('hands a domain task to a poll in that domain, with the domain set on the task', async () => {
    const id = await h.start('domained', {}, { taskToDomain: { step_a: 'blue' } });
    const polled = await mustPollIn('step_a', 'blue');
    expect(polled.workflowInstanceId).toBe(id);
    expect(polled.domain).toBe('blue');
    expect((await h.task(id, 'a'))?.domain).toBe('blue');
    expect(await queues()).toEqual({});
  });

  it('puts every worker task in the "*" domain', async () => {
    const id = await h.start('domained', {}, { taskToDomain: { '*': 'green' } });
    expect(await queues()).toEqual({ 'green:step_a': 1 });
    await h.complete(await mustPollIn('step_a', 'green'));
    expect(await queues()).toEqual({ 'green:step_b': 1 });
    const b = await mustPollIn('step_b', 'green');
    expect(b.domain).toBe('green');
    await h.complete(b);
    expect((await h.run(id)).status).toBe('COMPLETED');
  });

  it('lets a task named in the map beat the "*" default', async () => {
    await h.start('domained', {}, { taskToDomain: { '*': 'green', step_a: 'blue' } });
    expect(await queues()).toEqual({ 'blue:step_a': 1 });
    await h.complete(await mustPollIn('step_a', 'blue'));
    expect(await queues()).toEqual({ 'green:step_b': 1 });
  });

  it('queues a task mapped to NO_DOMAIN in its plain queue, even under a "*" default', async () => {
    const id = await h.start('domained', {}, { taskToDomain: { '*': 'green', step_a: 'NO_DOMAIN' } });
    expect(await queues()).toEqual({ step_a: 1 });
    const polled = await h.poll('step_a');
    expect(polled?.workflowInstanceId).toBe(id);
    expect(polled?.domain).toBeUndefined();
  });

  it('queues a task with a comma list of domains in the last one listed when no worker polled any of them', async () => {
    await h.start('domained', {}, { taskToDomain: { step_a: 'east, west' } });
    expect(await queues()).toEqual({ 'west:step_a': 1 });
    expect(await pollIn('step_a', 'east')).toBeUndefined();
    expect((await mustPollIn('step_a', 'west')).domain).toBe('west');
  });

  it('queues a task with a comma list of domains in the first one a worker polled in the last 10 seconds', async () => {
    expect(await pollIn('step_a', 'east')).toBeUndefined();
    h.clock.advance(5_000);
    await h.start('domained', {}, { taskToDomain: { step_a: 'north, east, west' } });
    expect(await queues()).toEqual({ 'east:step_a': 1 });
    expect((await mustPollIn('step_a', 'east')).domain).toBe('east');
  });

  it('stops counting a worker as live 10 seconds after its last poll', async () => {
    expect(await pollIn('step_a', 'east')).toBeUndefined();
    h.clock.advance(10_001);
    await h.start('domained', {}, { taskToDomain: { step_a: 'east, west' } });
    expect(await queues()).toEqual({ 'west:step_a': 1 });
  });

  it('uses the plain queue for NO_DOMAIN in a list when a worker polls it without a domain', async () => {
    expect(await h.poll('step_a')).toBeUndefined();
    await h.start('domained', {}, { taskToDomain: { step_a: 'NO_DOMAIN, west' } });
    expect(await queues()).toEqual({ step_a: 1 });
  });

  it('never gives a system task a domain, whether by "*" or by its own name', async () => {
    const id = await h.start('domained', {}, { taskToDomain: { '*': 'green', shape: 'blue' } });
    const shape = await h.task(id, 'shape');
    expect(shape?.status).toBe('COMPLETED');
    expect(shape?.domain).toBeUndefined();
    expect(await queues()).toEqual({ 'green:step_a': 1 });
  });

  it('queues the retry of a failed domain task in the same domain', async () => {
    await h.registerTaskDefs([{ name: 'step_a', retryCount: 1, retryDelaySeconds: 0 }]);
    const id = await h.start('domained', {}, { taskToDomain: { step_a: 'blue' } });
    await h.complete(await mustPollIn('step_a', 'blue'), {}, 'FAILED', 'boom');
    expect(await queues()).toEqual({ 'blue:step_a': 1 });
    const retry = await mustPollIn('step_a', 'blue');
    expect(retry.retryCount).toBe(1);
    expect(retry.workflowInstanceId).toBe(id);
  });

  it('hands a domain task that a worker reports IN_PROGRESS back to its domain queue', async () => {
    const id = await h.start('domained', {}, { taskToDomain: { step_a: 'blue' } });
    const a = await mustPollIn('step_a', 'blue');
    await h.services.engine.tasks.update({ workflowInstanceId: id, taskId: a.taskId, status: 'IN_PROGRESS' });
    await h.settle();
    expect(await queues()).toEqual({ 'blue:step_a': 1 });
    expect((await mustPollIn('step_a', 'blue')).taskId).toBe(a.taskId);
  });
});

describe('workflow priority', () => {
  let h: EngineHarness;

  beforeEach(async () => {
    h = await engineHarness();
    await h.register({
      name: 'prioritized',
      tasks: [
        { name: 'step_a', taskReferenceName: 'a' },
        { name: 'step_b', taskReferenceName: 'b' },
      ],
    });
  });
  afterEach(() => h.close());

  /** Polls every ready step_a and answers the ids of their runs in the order they came. */
  const drainRuns = async (): Promise<string[]> => {
    const order: string[] = [];
    for (let task = await h.poll('step_a'); task; task = await h.poll('step_a')) {
      order.push(task.workflowInstanceId);
    }
    return order;
  };

  it('serves the tasks of higher-priority runs first, whatever order the runs started in', async () => {
    const low = await h.start('prioritized', {}, { priority: 10 });
    h.clock.advance(1000);
    const high = await h.start('prioritized', {}, { priority: 90 });
    h.clock.advance(1000);
    const mid = await h.start('prioritized', {}, { priority: 50 });
    expect(await drainRuns()).toEqual([high, mid, low]);
  });

  it('serves runs of equal priority oldest first', async () => {
    const first = await h.start('prioritized', {}, { priority: 20 });
    h.clock.advance(1000);
    const second = await h.start('prioritized', {}, { priority: 20 });
    const third = await h.start('prioritized', {}, { priority: 20 });
    expect(await drainRuns()).toEqual([first, second, third]);
  });

  it('copies the run priority to each of its tasks as workflowPriority', async () => {
    const id = await h.start('prioritized', {}, { priority: 42 });
    expect((await h.run(id)).priority).toBe(42);
    const a = await h.work('step_a');
    expect(a.workflowPriority).toBe(42);
    const b = await h.poll('step_b');
    expect(b?.workflowPriority).toBe(42);
  });

  it('gives a run started without a priority, and its tasks, priority 0', async () => {
    const id = await h.start('prioritized');
    expect((await h.run(id)).priority).toBe(0);
    expect((await h.poll('step_a'))?.workflowPriority).toBe(0);
  });
});
