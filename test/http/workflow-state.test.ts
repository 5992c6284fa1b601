// POST /api/workflow/{id}/state over HTTP (both transports; docs/api.md "Workflow API"): the answer's
// shape and wait (a listed task, a timeout with signalTimeout), and every wrong request answered with
// a 4xx error body naming the problem, nothing applied.
import { describe, expect, it } from 'vitest';
import { uniqueName } from '../helpers/fixtures.ts';
import { errorBody, useTestServer } from '../helpers/server.ts';
import { ExecutionApi, eventually, expectJson } from './execution-api.ts';

interface Run {
  workflowId: string;
  status: string;
  requestId: string;
  signalTimeout: boolean;
  variables: Record<string, unknown>;
  tasks: { referenceTaskName: string; status: string; taskId: string; outputData: Record<string, unknown> }[];
}

describe('POST /api/workflow/{id}/state', () => {
  const server = useTestServer();
  const api = new ExecutionApi(server);

  /** WAIT `first`, then a worker task nobody polls, then WAIT `last`. */
  const startRun = async () => {
    const name = uniqueName('state_wf');
    const worker = uniqueName('state_worker');
    await api.registerWorkflow({
      name,
      tasks: [
        { name: 'first', taskReferenceName: 'first', type: 'WAIT' },
        { name: worker, taskReferenceName: 'work', type: 'SIMPLE' },
        { name: 'last', taskReferenceName: 'last', type: 'WAIT' },
      ],
    });
    await api.registerTaskDefs([{ name: worker }]);
    const id = await api.start(name);
    await eventually(async () => {
      const run = await api.workflow(id);
      if (run.tasks[0]?.status !== 'IN_PROGRESS') throw new Error('not waiting yet');
    });
    return { id, worker };
  };
  const update = (id: string, body: unknown, query = '') =>
    api.send('POST', `/api/workflow/${id}/state${query}`, body);

  it('answers a listed task once it is over, and the state so far with signalTimeout when the wait runs out', async () => {
    const { id, worker } = await startRun();
    const listed = await expectJson<Run>(
      await update(
        id,
        { taskReferenceName: 'first', taskResult: { outputData: { ok: 1 } }, variables: { step: 1 } },
        '?requestId=r-1&waitUntilTaskRef=first',
      ),
    );
    expect(listed).toMatchObject({
      workflowId: id,
      status: 'RUNNING',
      requestId: 'r-1',
      signalTimeout: false,
    });
    expect(listed.variables).toEqual({ step: 1 });
    expect(listed.tasks[0]).toMatchObject({
      referenceTaskName: 'first',
      status: 'COMPLETED',
      outputData: { ok: 1 },
    });

    // Nothing blocks the run while its worker task waits for a worker: the wait runs out.
    const started = Date.now();
    const timedOut = await expectJson<Run>(await update(id, { variables: { step: 2 } }, '?waitForSeconds=1'));
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(timedOut).toMatchObject({ status: 'RUNNING', signalTimeout: true, variables: { step: 2 } });
    expect(typeof timedOut.requestId).toBe('string');
    expect(timedOut.tasks.map((t) => t.referenceTaskName)).toEqual(['first', 'work']);

    // A worker task's result by reference name; the answer comes when `last` blocks the run.
    const blocked = await expectJson<Run>(
      await update(id, { taskReferenceName: 'work', taskResult: { status: 'COMPLETED', workerId: 'me' } }),
    );
    expect(blocked.tasks.map((t) => [t.referenceTaskName, t.status])).toEqual([
      ['first', 'COMPLETED'],
      ['work', 'COMPLETED'],
      ['last', 'IN_PROGRESS'],
    ]);
    expect(await api.poll(worker)).toBeUndefined();
  });

  it('answers 400 naming the problem for a body that is not a WorkflowStateUpdate, applying nothing', async () => {
    const { id } = await startRun();
    const cases: [unknown, RegExp][] = [
      [undefined, /Request body is required: WorkflowStateUpdate/],
      [[], /must be a JSON object: WorkflowStateUpdate/],
      [{ taskResult: { status: 'COMPLETED' } }, /taskReferenceName: is required with a taskResult/],
      [{ taskReferenceName: 'first', taskResult: { status: 'DONE' } }, /taskResult\.status: must be one of/],
      [{ taskReferenceName: 'first', taskResult: 'COMPLETED' }, /taskResult: must be a JSON object/],
      [{ taskReferenceName: 'first', taskResult: { outputData: [1] } }, /taskResult\.outputData/],
      [{ variables: [1, 2] }, /variables: must be a JSON object/],
      [
        { taskReferenceName: 'first', taskResult: { workflowInstanceId: 'another' } },
        /is not the workflow updated/,
      ],
    ];
    for (const [body, named] of cases) {
      const error = await errorBody(await update(id, body), 400);
      expect(error.message).toMatch(named);
    }
    const badWait = await errorBody(await update(id, { variables: {} }, '?waitForSeconds=-1'), 400);
    expect(badWait.message).toContain('waitForSeconds');
    await errorBody(await update(id, { variables: {} }, '?waitForSeconds=soon'), 400);
    await errorBody(await update(id, '{"variables":'), 400);

    // A taskId of another reference is refused before anything is applied.
    const run = await api.workflow(id);
    const firstId = run.tasks[0]?.taskId as string;
    const wrong = await errorBody(
      await update(id, { taskReferenceName: 'last', taskResult: { taskId: firstId }, variables: { x: 1 } }),
      400,
    );
    expect(wrong.message).toContain('first');
    const after = await api.workflow(id);
    expect(after.variables).toEqual({});
    expect(after.tasks[0]?.status).toBe('IN_PROGRESS');
  });

  it('answers 404 for an unknown run or a reference with no open task, 409 for variables of an ended run', async () => {
    await errorBody(await update(uniqueName('no_such_run'), { variables: { a: 1 } }), 404);
    const { id } = await startRun();
    const none = await errorBody(
      await update(id, {
        taskReferenceName: 'last',
        taskResult: { status: 'COMPLETED' },
        variables: { a: 1 },
      }),
      404,
    );
    expect(none.message).toContain('last');
    expect((await api.workflow(id)).variables).toEqual({});

    await api.send('DELETE', `/api/workflow/${id}?reason=done`);
    const ended = await errorBody(await update(id, { variables: { a: 1 } }), 409);
    expect(ended.message).toContain('TERMINATED');
    // A result for a task that is over is accepted and ignored, as a worker's is.
    const first = (await api.workflow(id)).tasks[0];
    const ignored = await expectJson<Run>(
      await update(id, {
        taskReferenceName: 'first',
        taskResult: { taskId: first?.taskId, status: 'COMPLETED' },
      }),
    );
    expect(ignored.status).toBe('TERMINATED');
    expect(ignored.tasks[0]?.status).toBe('CANCELED');
  });
});
