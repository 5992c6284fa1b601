/**
 * The other ways to report on a task (docs/conductor-compat.md §1.1): by reference name (output
 * merged, id as text), its /sync form (the run back), the signal routes that complete a blocking
 * WAIT, and task logs (raw string lines in, a list or 204 out).
 */
import { describe, expect, it } from 'vitest';
import { type Json, ref, uniqueName } from '../helpers/fixtures.ts';
import { errorBody, pathsOf, useTestServer } from '../helpers/server.ts';
import {
  type ApiTask,
  type ApiWorkflow,
  ExecutionApi,
  expectJson,
  expectNoContent,
  expectOk,
  expectText,
} from './execution-api.ts';

const api = new ExecutionApi(useTestServer());

const chained = () => api.registerChain();

/** 200 with an empty body: how Conductor answers routes that return nothing. */
async function expectEmptyOk(response: Response): Promise<void> {
  expect(await expectOk(response)).toBe('');
}

const task = async (taskId: string) => expectJson<ApiTask>(await api.get(`/api/tasks/${taskId}`));

describe('POST /api/tasks/{workflowId}/{taskRefName}/{status}', () => {
  it('merges the body into the task output and answers the task id as text/plain', async () => {
    const wf = await chained();
    const id = await api.start(wf.name);
    const first = await api.pollEventually(wf.first);
    await api.update(first, 'IN_PROGRESS', { progress: 50, keep: true });

    const answer = await expectText(
      await api.send('POST', `/api/tasks/${id}/first/COMPLETED`, { progress: 100 }),
    );
    expect(answer).toBe(first.taskId);
    expect(await task(first.taskId)).toMatchObject({
      status: 'COMPLETED',
      outputData: { progress: 100, keep: true },
    });
    await api.pollEventually(wf.second);
  });

  it('records the worker id from the query', async () => {
    const wf = await chained();
    const id = await api.start(wf.name);
    const first = await api.pollEventually(wf.first);
    await expectText(await api.send('POST', `/api/tasks/${id}/first/COMPLETED?workerid=by-ref`, {}));
    expect((await task(first.taskId)).workerId).toBe('by-ref');
  });

  it('answers 200 with an empty body when no open task has that reference', async () => {
    const wf = await chained();
    const id = await api.start(wf.name);
    await api.pollEventually(wf.first);
    await expectEmptyOk(await api.send('POST', `/api/tasks/${id}/no_such_ref/COMPLETED`, {}));
    await expectEmptyOk(await api.send('POST', `/api/tasks/${id}/second/COMPLETED`, {}));
  });

  it('rejects an unknown status, a non-object body and malformed JSON with 400', async () => {
    const wf = await chained();
    const id = await api.start(wf.name);
    const bad = await errorBody(await api.send('POST', `/api/tasks/${id}/first/FINISHED`, {}), 400);
    expect(pathsOf(bad)).toContain('status');
    await errorBody(await api.send('POST', `/api/tasks/${id}/first/COMPLETED`, [1, 2]), 400);
    await errorBody(await api.send('POST', `/api/tasks/${id}/first/COMPLETED`, '{oops'), 400);
  });

  it('answers 404 for an unknown workflow', async () => {
    const body = await errorBody(await api.send('POST', '/api/tasks/missing-wf/first/COMPLETED', {}), 404);
    expect(body.message).toMatch(/missing-wf/);
  });
});

describe('POST /api/tasks/{workflowId}/{taskRefName}/{status}/sync', () => {
  it('completes the task and answers the run with its tasks', async () => {
    const wf = await chained();
    const id = await api.start(wf.name);
    await api.pollEventually(wf.first);
    const run = await expectJson<ApiWorkflow>(
      await api.send('POST', `/api/tasks/${id}/first/COMPLETED/sync`, { value: 'v' }),
    );
    expect(run.workflowId).toBe(id);
    expect(run.tasks[0]).toMatchObject({ referenceTaskName: 'first', status: 'COMPLETED' });
  });

  it('answers 404 when the run has no open task with that reference', async () => {
    const wf = await chained();
    const id = await api.start(wf.name);
    const body = await errorBody(await api.send('POST', `/api/tasks/${id}/nope/COMPLETED/sync`, {}), 404);
    expect(body.message).toMatch(/Found no running task nope/);
  });
});

describe('POST /api/tasks/{workflowId}/{status}/signal', () => {
  it('completes the first open WAIT task with the body as its output', async () => {
    const name = uniqueName('wait_wf');
    await api.registerWorkflow({
      name,
      version: 1,
      tasks: [{ name: 'hold', taskReferenceName: 'hold', type: 'WAIT' }],
      outputParameters: { approved: ref('hold.output.approved') },
    });
    const id = await api.start(name);
    await expectEmptyOk(await api.send('POST', `/api/tasks/${id}/COMPLETED/signal`, { approved: true }));
    const run = await api.workflowEventually(id, 'COMPLETED');
    expect(run.tasks[0]).toMatchObject({
      taskType: 'WAIT',
      status: 'COMPLETED',
      outputData: { approved: true },
    });
    expect(run.output).toEqual({ approved: true });
  });

  it('is a 200 no-op for a run whose open task is not a blocking one', async () => {
    const wf = await chained();
    const id = await api.start(wf.name);
    const first = await api.pollEventually(wf.first);
    await expectEmptyOk(await api.send('POST', `/api/tasks/${id}/COMPLETED/signal`, { ignored: 1 }));
    expect(await task(first.taskId)).toMatchObject({ status: 'IN_PROGRESS', outputData: {} });
    expect((await api.workflow(id)).status).toBe('RUNNING');
  });

  it('rejects an unknown status with 400 and answers 404 for an unknown workflow', async () => {
    const wf = await chained();
    const id = await api.start(wf.name);
    await errorBody(await api.send('POST', `/api/tasks/${id}/DONE/signal`, {}), 400);
    await errorBody(await api.send('POST', '/api/tasks/missing-wf/COMPLETED/signal', {}), 404);
  });
});

describe('POST /api/tasks/{workflowId}/{status}/signal/sync', () => {
  it('completes the WAIT task and answers the run as a SignalResponse once it has moved on', async () => {
    const name = uniqueName('wait_sync_wf');
    await api.registerWorkflow({
      name,
      version: 1,
      tasks: [{ name: 'hold', taskReferenceName: 'hold', type: 'WAIT' }],
      outputParameters: { answer: ref('hold.output.answer') },
    });
    const id = await api.start(name);
    await api.workflowUntil(id, (run) => run.tasks[0]);
    const response = await expectJson<Json>(
      await api.send('POST', `/api/tasks/${id}/COMPLETED/signal/sync`, { answer: 42 }),
    );
    expect(response).toMatchObject({
      responseType: 'TARGET_WORKFLOW',
      workflowId: id,
      targetWorkflowId: id,
      status: 'COMPLETED',
      output: { answer: 42 },
    });
  });

  it('answers 404 when the run has no blocking task', async () => {
    const wf = await chained();
    const id = await api.start(wf.name);
    await errorBody(await api.send('POST', `/api/tasks/${id}/COMPLETED/signal/sync`, {}), 404);
  });
});

describe('task logs', () => {
  async function polledTask(): Promise<ApiTask> {
    const wf = await chained();
    await api.start(wf.name);
    return api.pollEventually(wf.first);
  }

  it('adds a raw string line and lists it with the task id and a time', async () => {
    const polled = await polledTask();
    const add = await api.endpoint.fetch(`${api.url}/api/tasks/${polled.taskId}/log`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'working on it',
    });
    await expectEmptyOk(add);
    // The SDKs send the line JSON-encoded, quotes included.
    await expectEmptyOk(await api.send('POST', `/api/tasks/${polled.taskId}/log`, '"almost done"'));
    const logs = await expectJson<Json[]>(await api.get(`/api/tasks/${polled.taskId}/log`));
    expect(logs.map((l) => l.log)).toEqual(['working on it', 'almost done']);
    for (const log of logs) {
      expect(log.taskId).toBe(polled.taskId);
      expect(typeof log.createdTime).toBe('number');
    }
  });

  it('answers 204 for a task with no logs', async () => {
    const polled = await polledTask();
    await expectNoContent(await api.get(`/api/tasks/${polled.taskId}/log`));
  });

  it('answers 404 for an unknown task on both routes', async () => {
    await errorBody(await api.send('POST', '/api/tasks/no-such-task/log', '"x"'), 404);
    await errorBody(await api.get('/api/tasks/no-such-task/log'), 404);
  });
});
