/**
 * Pause, resume, terminate, remove and terminate-remove over both transports (docs/conductor-compat.md
 * §1.6, §4.7): each one's success, its 409 answers naming the state, 404 for an unknown run and 400
 * for bad query values; and a run paused while a worker holds its task, resumed, and finished.
 */
import { describe, expect, it } from 'vitest';
import { errorBody, useTestServer } from '../helpers/server.ts';
import { type Chain, ExecutionApi, expectEmptyOk } from './execution-api.ts';

const api = new ExecutionApi(useTestServer());

async function started(): Promise<{ flow: Chain; id: string }> {
  const flow = await api.registerChain();
  return { flow, id: await api.start(flow.name, { x: 1 }) };
}

async function completed(): Promise<string> {
  const { flow, id } = await started();
  await api.update(await api.pollEventually(flow.first), 'COMPLETED', { value: 1 });
  await api.update(await api.pollEventually(flow.second), 'COMPLETED', { result: 'r' });
  await api.workflowEventually(id, 'COMPLETED');
  return id;
}

const pause = (id: string) => api.send('PUT', `/api/workflow/${id}/pause`);
const resume = (id: string) => api.send('PUT', `/api/workflow/${id}/resume`);
const terminate = (id: string, query = '') => api.send('DELETE', `/api/workflow/${id}${query}`);

describe('PUT /api/workflow/{workflowId}/pause and /resume', () => {
  it('pauses: a worker still completes its task, nothing new is scheduled until resume', async () => {
    const { flow, id } = await started();
    const first = await api.pollEventually(flow.first);
    await expectEmptyOk(await pause(id));
    expect((await api.workflow(id)).status).toBe('PAUSED');

    await api.update(first, 'COMPLETED', { value: 5 });
    await api.workflowUntil(id, (run) => (run.tasks[0]?.status === 'COMPLETED' ? true : undefined));
    await api.send('PUT', `/api/workflow/decide/${id}`);
    const paused = await api.workflow(id);
    expect(paused.status).toBe('PAUSED');
    expect(paused.tasks.map((t) => t.referenceTaskName)).toEqual(['first']);
    expect(await api.poll(flow.second)).toBeUndefined();

    await expectEmptyOk(await resume(id));
    const second = await api.pollEventually(flow.second);
    expect(second.inputData).toEqual({ fromFirst: 5 });
    const run = await api.workflow(id);
    expect(run.status).toBe('RUNNING');
    expect(run.lastRetriedTime).toBeGreaterThan(0);
    await api.update(second, 'COMPLETED', { result: 'ok' });
    expect((await api.workflowEventually(id, 'COMPLETED')).output).toEqual({ result: 'ok' });
  });

  it('answers 200 to pausing a paused run, leaving it PAUSED', async () => {
    const { id } = await started();
    await expectEmptyOk(await pause(id));
    await expectEmptyOk(await pause(id));
    expect((await api.workflow(id)).status).toBe('PAUSED');
  });

  it('answers 409 naming the state to pausing or resuming an ended run and to resuming a running one', async () => {
    const done = await completed();
    expect((await errorBody(await pause(done), 409)).message).toBe(
      'Workflow is COMPLETED; a COMPLETED workflow cannot be paused',
    );
    expect((await errorBody(await resume(done), 409)).message).toBe(
      'Workflow is COMPLETED; only a PAUSED workflow can be resumed',
    );
    const { id } = await started();
    expect((await errorBody(await resume(id), 409)).message).toBe(
      'Workflow is RUNNING; only a PAUSED workflow can be resumed',
    );
  });

  it('answers 404 for an unknown run', async () => {
    expect((await errorBody(await pause('no-such-run'), 404)).message).toBe(
      'No such workflow found by id: no-such-run',
    );
    expect((await errorBody(await resume('no-such-run'), 404)).message).toBe(
      'No such workflow found by id: no-such-run',
    );
  });
});

describe('DELETE /api/workflow/{workflowId}', () => {
  it('terminates a running run with the reason and cancels its open task', async () => {
    const { flow, id } = await started();
    const first = await api.pollEventually(flow.first);
    await expectEmptyOk(await terminate(id, '?reason=operator%20stop'));
    const run = await api.workflowEventually(id, 'TERMINATED');
    expect(run.reasonForIncompletion).toBe('operator stop');
    expect(run.tasks.map((t) => t.status)).toEqual(['CANCELED']);
    // The worker's late answer is accepted and ignored.
    await api.update(first, 'COMPLETED', { value: 1 });
    expect((await api.workflow(id)).tasks.map((t) => t.status)).toEqual(['CANCELED']);
  });

  it('terminates a paused run, and answers 200 to terminating a TERMINATED one', async () => {
    const { id } = await started();
    await expectEmptyOk(await pause(id));
    await expectEmptyOk(await terminate(id, '?reason=first'));
    await expectEmptyOk(await terminate(id, '?reason=second'));
    expect((await api.workflow(id)).reasonForIncompletion).toBe('first');
  });

  it('terminates a FAILED run', async () => {
    const { flow, id } = await started();
    await api.update(await api.pollEventually(flow.first), 'FAILED_WITH_TERMINAL_ERROR', {});
    await api.workflowEventually(id, 'FAILED');
    await expectEmptyOk(await terminate(id, '?triggerFailureWorkflow=false'));
    expect((await api.workflow(id)).status).toBe('TERMINATED');
  });

  it('answers 409 for a COMPLETED run, 404 for an unknown one, 400 for a non-boolean flag', async () => {
    const done = await completed();
    expect((await errorBody(await terminate(done), 409)).message).toBe(
      'Cannot terminate a COMPLETED workflow.',
    );
    expect((await api.workflow(done)).status).toBe('COMPLETED');
    expect((await errorBody(await terminate('no-such-run'), 404)).message).toBe(
      'No such workflow found by id: no-such-run',
    );
    const { id } = await started();
    const body = await errorBody(await terminate(id, '?triggerFailureWorkflow=maybe'), 400);
    expect(body.message).toBe("Query parameter 'triggerFailureWorkflow' must be true or false, got 'maybe'");
  });
});

describe('DELETE /api/workflow/{workflowId}/remove and /terminate-remove', () => {
  const remove = (id: string, query = '') => api.send('DELETE', `/api/workflow/${id}/remove${query}`);

  it('removes an ended run (archiving by default); it reads as unknown afterwards', async () => {
    const done = await completed();
    await expectEmptyOk(await remove(done));
    await errorBody(await api.get(`/api/workflow/${done}`), 404);
    expect((await errorBody(await remove(done), 404)).message).toBe(`No such workflow found by id: ${done}`);
  });

  it('answers 400 to archiving a run still going, and removes it with archiveWorkflow=false', async () => {
    const { flow, id } = await started();
    expect((await errorBody(await remove(id), 400)).message).toBe(
      `Cannot archive workflow ${id}: it is still RUNNING; terminate it first or remove it with archiveWorkflow=false`,
    );
    expect((await api.workflow(id)).status).toBe('RUNNING');
    await expectEmptyOk(await remove(id, '?archiveWorkflow=false'));
    await errorBody(await api.get(`/api/workflow/${id}`), 404);
    expect(await api.poll(flow.first)).toBeUndefined();
  });

  it('answers 400 to a non-boolean archiveWorkflow', async () => {
    const { id } = await started();
    const body = await errorBody(await remove(id, '?archiveWorkflow=yes'), 400);
    expect(body.message).toBe("Query parameter 'archiveWorkflow' must be true or false, got 'yes'");
  });

  it('terminates and removes a running run, and removes an ended one', async () => {
    const { flow, id } = await started();
    await expectEmptyOk(await api.send('DELETE', `/api/workflow/${id}/terminate-remove?reason=gone`));
    await errorBody(await api.get(`/api/workflow/${id}`), 404);
    expect(await api.poll(flow.first)).toBeUndefined();
    const done = await completed();
    await expectEmptyOk(
      await api.send('DELETE', `/api/workflow/${done}/terminate-remove?archiveWorkflow=true`),
    );
    await errorBody(await api.get(`/api/workflow/${done}`), 404);
    const missing = await errorBody(
      await api.send('DELETE', '/api/workflow/no-such-run/terminate-remove'),
      404,
    );
    expect(missing.message).toBe('No such workflow found by id: no-such-run');
  });
});
