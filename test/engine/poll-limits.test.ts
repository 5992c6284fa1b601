/**
 * The limits a task definition sets on polls (docs/conductor-compat.md §4.4): `concurrentExecLimit`
 * caps IN_PROGRESS tasks of the definition, `rateLimitPerFrequency` caps tasks handed out per
 * `rateLimitFrequencyInSeconds` window. A task over a limit stays queued for a later poll.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../lib/model/execution.ts';
import { type EngineHarness, engineHarness } from '../helpers/engine.ts';

const S = 1000;

let h: EngineHarness;

beforeEach(async () => {
  h = await engineHarness();
});
afterEach(() => h.close());

/** Registers a one-task workflow named after its task, then starts `runs` of it. */
async function startRuns(taskName: string, runs: number): Promise<string[]> {
  await h.register({ name: `wf_${taskName}`, tasks: [{ name: taskName, taskReferenceName: 't' }] });
  const ids: string[] = [];
  for (let i = 0; i < runs; i++) ids.push(await h.start(`wf_${taskName}`));
  return ids;
}

async function mustPoll(taskType: string): Promise<TaskRecord> {
  const task = await h.poll(taskType);
  if (!task) throw new Error(`no ${taskType} task handed out`);
  return task;
}

const queued = (taskType: string) => h.services.engine.tasks.queueSize(taskType);

describe('concurrentExecLimit', () => {
  beforeEach(async () => {
    await h.registerTaskDefs([{ name: 'limited', concurrentExecLimit: 2, retryCount: 0 }]);
  });

  it('hands out no more tasks than the limit while they are IN_PROGRESS', async () => {
    await startRuns('limited', 3);
    await mustPoll('limited');
    await mustPoll('limited');
    expect(await h.poll('limited')).toBeUndefined();
    expect(await queued('limited')).toBe(1);
  });

  it('hands out the waiting task once one of the running ones completes', async () => {
    const ids = await startRuns('limited', 3);
    const first = await mustPoll('limited');
    await mustPoll('limited');
    expect(await h.poll('limited')).toBeUndefined();
    await h.complete(first);
    const third = await mustPoll('limited');
    expect(third.workflowInstanceId).toBe(ids[2]);
    expect(await h.poll('limited')).toBeUndefined();
  });

  it('caps a batch poll at the limit too', async () => {
    await startRuns('limited', 3);
    const batch = await h.services.engine.tasks.poll('limited', { count: 3, timeoutMs: 0, workerId: 'w' });
    expect(batch).toHaveLength(2);
  });

  it('frees a slot when a worker hands its task back with IN_PROGRESS', async () => {
    const ids = await startRuns('limited', 3);
    const first = await mustPoll('limited');
    await mustPoll('limited');
    await h.services.engine.tasks.update({
      workflowInstanceId: first.workflowInstanceId,
      taskId: first.taskId,
      status: 'IN_PROGRESS',
      callbackAfterSeconds: 60,
    });
    await h.settle();
    expect((await mustPoll('limited')).workflowInstanceId).toBe(ids[2]);
  });

  it('frees a slot when the run of a running task is terminated', async () => {
    const ids = await startRuns('limited', 3);
    const first = await mustPoll('limited');
    await mustPoll('limited');
    await h.services.engine.operations.terminate(first.workflowInstanceId, 'no longer needed');
    await h.settle();
    expect((await h.task(first.workflowInstanceId, 't'))?.status).toBe('CANCELED');
    expect((await mustPoll('limited')).workflowInstanceId).toBe(ids[2]);
  });

  it('frees a slot when a running task times out', async () => {
    await h.registerTaskDefs([
      { name: 'limited', concurrentExecLimit: 2, retryCount: 0, responseTimeoutSeconds: 10 },
    ]);
    const ids = await startRuns('limited', 3);
    const first = await mustPoll('limited');
    h.clock.advance(5 * S);
    await mustPoll('limited');
    await h.advance(5 * S);
    expect((await h.task(first.workflowInstanceId, 't'))?.status).toBe('TIMED_OUT');
    expect((await mustPoll('limited')).workflowInstanceId).toBe(ids[2]);
  });

  it('does not limit a task type whose definition sets no limit', async () => {
    await startRuns('unlimited', 3);
    const batch = await h.services.engine.tasks.poll('unlimited', { count: 3, timeoutMs: 0, workerId: 'w' });
    expect(batch).toHaveLength(3);
  });
});

describe('rateLimitPerFrequency', () => {
  beforeEach(async () => {
    await h.registerTaskDefs([
      { name: 'throttled', rateLimitPerFrequency: 2, rateLimitFrequencyInSeconds: 10, retryCount: 0 },
    ]);
  });

  it('hands out only the allowed number of tasks per window, even once they are completed', async () => {
    await startRuns('throttled', 5);
    await h.complete(await mustPoll('throttled'));
    await h.complete(await mustPoll('throttled'));
    expect(await h.poll('throttled')).toBeUndefined();
    expect(await queued('throttled')).toBe(3);
  });

  it('hands out the next ones when the window has passed, and again only that many', async () => {
    const ids = await startRuns('throttled', 5);
    await mustPoll('throttled');
    await mustPoll('throttled');
    h.clock.advance(10 * S - 1);
    expect(await h.poll('throttled')).toBeUndefined();
    h.clock.advance(1);
    expect((await mustPoll('throttled')).workflowInstanceId).toBe(ids[2]);
    expect((await mustPoll('throttled')).workflowInstanceId).toBe(ids[3]);
    expect(await h.poll('throttled')).toBeUndefined();
    h.clock.advance(10 * S);
    expect((await mustPoll('throttled')).workflowInstanceId).toBe(ids[4]);
  });

  it('caps a batch poll at the rate limit too', async () => {
    await startRuns('throttled', 5);
    const batch = await h.services.engine.tasks.poll('throttled', { count: 5, timeoutMs: 0, workerId: 'w' });
    expect(batch).toHaveLength(2);
  });
});
