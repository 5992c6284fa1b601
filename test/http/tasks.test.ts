/**
 * The worker loop of /api/tasks over both transports (docs/conductor-compat.md §1.1, §2.6, §2.7): polls
 * (204 / [] when empty), TaskResult updates answered with the id as text/plain, update-v2 handing
 * out the next task, and reading one task back - with every bad input answered 400/404.
 */
import { describe, expect, it } from 'vitest';
import { type Json, loop, uniqueName } from '../helpers/fixtures.ts';
import { errorBody, pathsOf, useTestServer } from '../helpers/server.ts';
import { type ApiTask, ExecutionApi, eventually, expectJson, expectNoContent } from './execution-api.ts';

const api = new ExecutionApi(useTestServer({ 'service.instance-id': 'tasks-test-node' }));

/** A registered two-task workflow with task types of its own, so tests sharing the server never meet. */
const chained = () => api.registerChain();

async function pollBatch(type: string, query: string): Promise<ApiTask[]> {
  return expectJson<ApiTask[]>(await api.get(`/api/tasks/poll/batch/${type}?${query}`));
}

describe('GET /api/tasks/poll/{taskType}', () => {
  it('answers 204 with an empty body when nothing is queued', async () => {
    expect(await api.poll(uniqueName('idle'))).toBeUndefined();
  });

  it('hands out a scheduled task IN_PROGRESS to the polling worker, with its input resolved', async () => {
    const wf = await chained();
    const id = await api.start(wf.name, { x: 7 });
    const task = await api.pollEventually(wf.first, 'worker-a');
    expect(task).toMatchObject({
      workflowInstanceId: id,
      taskType: wf.first,
      referenceTaskName: 'first',
      status: 'IN_PROGRESS',
      workerId: 'worker-a',
      pollCount: 1,
      inputData: { x: 7 },
    });
  });

  it('hands a task to one worker only', async () => {
    const wf = await chained();
    await api.start(wf.name, { x: 1 });
    await api.pollEventually(wf.first);
    expect(await api.poll(wf.first, 'another-worker')).toBeUndefined();
  });
});

describe('GET /api/tasks/poll/batch/{taskType}', () => {
  it('answers 200 with an empty JSON array, never 204, when nothing is queued', async () => {
    expect(await pollBatch(uniqueName('idle'), 'count=5&timeout=0')).toEqual([]);
  });

  it('hands out at most count tasks per call', async () => {
    const wf = await chained();
    for (let i = 0; i < 3; i++) await api.start(wf.name, { x: i });
    await eventually(async () => {
      const sizes = await expectJson<Json>(await api.get(`/api/tasks/queue/sizes?taskType=${wf.first}`));
      expect(sizes[wf.first]).toBe(3);
    });
    const firstBatch = await pollBatch(wf.first, 'count=2&timeout=0&workerid=w');
    expect(firstBatch).toHaveLength(2);
    expect(firstBatch.every((t) => t.status === 'IN_PROGRESS' && t.workerId === 'w')).toBe(true);
    expect(await pollBatch(wf.first, 'count=2&timeout=0')).toHaveLength(1);
    expect(await pollBatch(wf.first, 'count=2&timeout=0')).toEqual([]);
  });

  it('long-polls: a task scheduled while the poll waits is handed out to it', async () => {
    const wf = await chained();
    const waiting = pollBatch(wf.first, 'count=1&timeout=3000');
    const id = await api.start(wf.name, { x: 1 });
    const [task] = await waiting;
    expect(task?.workflowInstanceId).toBe(id);
  });

  it('rejects a timeout above 5000 ms with 400', async () => {
    const body = await errorBody(await api.get(`/api/tasks/poll/batch/any?timeout=6000`), 400);
    expect(body.message).toBe('Long Poll Timeout value cannot be more than 5 seconds');
    expect(pathsOf(body)).toContain('timeout');
  });

  it.each([
    ['count=0', 'count'],
    ['count=-3', 'count'],
    ['count=two', 'count'],
    ['timeout=soon', 'timeout'],
    ['timeout=-1', 'timeout'],
  ])('rejects %s with 400', async (query, path) => {
    const body = await errorBody(await api.get(`/api/tasks/poll/batch/any?${query}`), 400);
    expect(pathsOf(body)).toContain(path);
  });
});

describe('POST /api/tasks', () => {
  it('completes a task, answers its id as text/plain, and the next task gets its output', async () => {
    const wf = await chained();
    const id = await api.start(wf.name, { x: 2 });
    const first = await api.pollEventually(wf.first);
    expect(await api.update(first, 'COMPLETED', { value: 'from-first' })).toBe(first.taskId);

    const second = await api.pollEventually(wf.second);
    expect(second.inputData).toEqual({ fromFirst: 'from-first' });
    await api.update(second, 'COMPLETED', { result: 42 });

    const run = await api.workflowEventually(id, 'COMPLETED');
    expect(run.output).toEqual({ result: 42 });
    expect(run.tasks.map((t) => [t.referenceTaskName, t.status, t.outputData])).toEqual([
      ['first', 'COMPLETED', { value: 'from-first' }],
      ['second', 'COMPLETED', { result: 42 }],
    ]);
  });

  it('answers 200 and ignores an update to a task that is already completed', async () => {
    const wf = await chained();
    const id = await api.start(wf.name);
    const first = await api.pollEventually(wf.first);
    await api.update(first, 'COMPLETED', { value: 'kept' });
    expect(await api.update(first, 'FAILED', { value: 'ignored' })).toBe(first.taskId);
    const stored = await expectJson<ApiTask>(await api.get(`/api/tasks/${first.taskId}`));
    expect(stored).toMatchObject({ status: 'COMPLETED', outputData: { value: 'kept' } });
    expect((await api.workflow(id)).status).toBe('RUNNING');
  });

  it('fails the run when a task without retries fails, keeping the worker reason', async () => {
    const wf = await chained();
    await api.registerTaskDefs([{ name: wf.first, retryCount: 0 }]);
    const id = await api.start(wf.name);
    const first = await api.pollEventually(wf.first);
    await api.update(first, 'FAILED', {}, { reasonForIncompletion: 'disk full' });
    const run = await api.workflowEventually(id, 'FAILED');
    expect(run.tasks[0]).toMatchObject({ status: 'FAILED', reasonForIncompletion: 'disk full' });
  });

  it('stores the logs a TaskResult carries', async () => {
    const wf = await chained();
    await api.start(wf.name);
    const first = await api.pollEventually(wf.first);
    await api.update(first, 'IN_PROGRESS', {}, { logs: [{ log: 'step 1', createdTime: 1 }, 'step 2'] });
    const logs = await expectJson<Json[]>(await api.get(`/api/tasks/${first.taskId}/log`));
    expect(logs.map((l) => l.log)).toEqual(['step 1', 'step 2']);
  });

  it('rejects malformed JSON with 400', async () => {
    const body = await errorBody(await api.send('POST', '/api/tasks', '{"taskId": '), 400);
    expect(body.message).toMatch(/Malformed JSON/);
  });

  it('rejects a TaskResult without taskId and workflowInstanceId, naming both paths', async () => {
    const body = await errorBody(await api.send('POST', '/api/tasks', { status: 'COMPLETED' }), 400);
    expect(pathsOf(body)).toEqual(expect.arrayContaining(['taskId', 'workflowInstanceId']));
    expect(body.retryable).toBe(false);
    expect(body.instance).toBe('tasks-test-node');
  });

  it.each([
    ['an unknown status', { status: 'DONE' }, 'status'],
    ['no status', { status: undefined }, 'status'],
    ['a negative callback', { status: 'IN_PROGRESS', callbackAfterSeconds: -1 }, 'callbackAfterSeconds'],
    ['output as an array', { status: 'COMPLETED', outputData: [1] }, 'outputData'],
    ['a numeric taskId', { status: 'COMPLETED', taskId: 12 }, 'taskId'],
  ])('rejects %s with 400', async (_what, fields, path) => {
    const result = { taskId: 't', workflowInstanceId: 'w', ...fields };
    const body = await errorBody(await api.send('POST', '/api/tasks', result), 400);
    expect(pathsOf(body)).toContain(path);
  });

  it('rejects a body that is not an object with 400', async () => {
    await errorBody(await api.send('POST', '/api/tasks', [{ taskId: 't' }]), 400);
  });

  it('answers 404 for a task the workflow does not have', async () => {
    const wf = await chained();
    const id = await api.start(wf.name);
    const body = await errorBody(
      await api.send('POST', '/api/tasks', { taskId: 'nope', workflowInstanceId: id, status: 'COMPLETED' }),
      404,
    );
    expect(body.message).toBe('Task not found for taskId: nope');
  });

  it('answers 404 for a workflow that does not exist', async () => {
    const body = await errorBody(
      await api.send('POST', '/api/tasks', {
        taskId: 't',
        workflowInstanceId: 'missing',
        status: 'COMPLETED',
      }),
      404,
    );
    expect(body.message).toMatch(/missing/);
  });
});

describe('POST /api/tasks/update-v2', () => {
  it('answers the next task of the same type, already claimed for the worker', async () => {
    const wf = await chained();
    await api.start(wf.name, { x: 1 });
    const other = await api.start(wf.name, { x: 2 });
    const first = await api.pollEventually(wf.first, 'v2-worker');
    await eventually(async () => {
      const size = await expectJson<number>(await api.get(`/api/tasks/queue/size?taskType=${wf.first}`));
      expect(size).toBe(1);
    });
    const response = await api.send('POST', '/api/tasks/update-v2', {
      taskId: first.taskId,
      workflowInstanceId: first.workflowInstanceId,
      status: 'COMPLETED',
      outputData: { value: 'v' },
      workerId: 'v2-worker',
    });
    const next = await expectJson<ApiTask>(response);
    expect(next).toMatchObject({
      taskType: wf.first,
      workflowInstanceId: other,
      status: 'IN_PROGRESS',
      workerId: 'v2-worker',
    });
    expect(next.taskId).not.toBe(first.taskId);
  });

  it("answers the task its own update made the decider schedule: a loop's next iteration", async () => {
    const flow = uniqueName('loop');
    const body = uniqueName('body');
    await api.registerWorkflow({
      name: flow,
      version: 1,
      tasks: [loop([{ name: body, taskReferenceName: 'step', type: 'SIMPLE' }], '$.loop.iteration < 3')],
    });
    // A first run warms the server's script sandbox (its first loopCondition starts a worker
    // thread, which takes longer than update-v2 waits for a decide).
    const warm = await api.start(flow);
    for (let n = 0; n < 3; n++) await api.update(await api.pollEventually(body, 'loop-worker'), 'COMPLETED');
    await api.workflowEventually(warm, 'COMPLETED');

    const id = await api.start(flow);
    let task = await api.pollEventually(body, 'loop-worker');
    const handed: string[] = [task.referenceTaskName];
    // One update-v2 per iteration and no poll in between: each answer is the next iteration.
    for (let n = 1; n < 3; n++) {
      const response = await api.send('POST', '/api/tasks/update-v2', {
        taskId: task.taskId,
        workflowInstanceId: id,
        status: 'COMPLETED',
        workerId: 'loop-worker',
      });
      task = await expectJson<ApiTask>(response);
      handed.push(task.referenceTaskName);
      expect(task).toMatchObject({ workflowInstanceId: id, status: 'IN_PROGRESS', workerId: 'loop-worker' });
    }
    expect(handed).toEqual(['step__1', 'step__2', 'step__3']);
    await expectNoContent(
      await api.send('POST', '/api/tasks/update-v2', {
        taskId: task.taskId,
        workflowInstanceId: id,
        status: 'COMPLETED',
      }),
    );
    await api.workflowEventually(id, 'COMPLETED');
  });

  it('answers 204 when no other task of the type is waiting', async () => {
    const wf = await chained();
    await api.start(wf.name);
    const first = await api.pollEventually(wf.first);
    await expectNoContent(
      await api.send('POST', '/api/tasks/update-v2', {
        taskId: first.taskId,
        workflowInstanceId: first.workflowInstanceId,
        status: 'COMPLETED',
      }),
    );
    await api.pollEventually(wf.second);
  });

  it('answers 204 for an update that leaves the task unfinished', async () => {
    const wf = await chained();
    await api.start(wf.name);
    await api.start(wf.name);
    const first = await api.pollEventually(wf.first);
    await expectNoContent(
      await api.send('POST', '/api/tasks/update-v2', {
        taskId: first.taskId,
        workflowInstanceId: first.workflowInstanceId,
        status: 'IN_PROGRESS',
        callbackAfterSeconds: 60,
      }),
    );
  });

  it('validates like POST /api/tasks', async () => {
    const body = await errorBody(await api.send('POST', '/api/tasks/update-v2', { status: 'NOPE' }), 400);
    expect(pathsOf(body)).toEqual(expect.arrayContaining(['taskId', 'workflowInstanceId', 'status']));
    await errorBody(await api.send('POST', '/api/tasks/update-v2', 'not json'), 400);
    await errorBody(
      await api.send('POST', '/api/tasks/update-v2', {
        taskId: 'x',
        workflowInstanceId: 'missing',
        status: 'COMPLETED',
      }),
      404,
    );
  });
});

describe('GET /api/tasks/{taskId}', () => {
  it('answers the task with its execution fields', async () => {
    const wf = await chained();
    const id = await api.start(wf.name, { x: 3 });
    const polled = await api.pollEventually(wf.first);
    const task = await expectJson<ApiTask & Json>(await api.get(`/api/tasks/${polled.taskId}`));
    expect(task).toMatchObject({
      taskId: polled.taskId,
      workflowInstanceId: id,
      status: 'IN_PROGRESS',
      taskDefName: wf.first,
      inputData: { x: 3 },
      retryCount: 0,
      seq: 1,
    });
    expect(task).not.toHaveProperty('rev');
  });

  it('answers 404 for an unknown task id', async () => {
    const body = await errorBody(await api.get('/api/tasks/no-such-task'), 404);
    expect(body.message).toBe('Task not found for taskId: no-such-task');
  });
});
