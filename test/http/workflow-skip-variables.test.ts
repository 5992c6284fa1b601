/**
 * Skip a task, reset callbacks and update variables over both transports (docs/conductor-compat.md
 * §1.6, §2.14, §4.7): each one's success, its 409 answers naming the state, 404 for an unknown run,
 * and 400 for malformed or mistyped bodies and unknown references.
 */
import { describe, expect, it } from 'vitest';
import { type Json, ref, uniqueName } from '../helpers/fixtures.ts';
import { errorBody, useTestServer } from '../helpers/server.ts';
import {
  type ApiWorkflow,
  type Chain,
  ExecutionApi,
  expectEmptyOk,
  expectJson,
  expectNoContent,
} from './execution-api.ts';

const api = new ExecutionApi(useTestServer());

async function started(): Promise<{ flow: Chain; id: string }> {
  const flow = await api.registerChain();
  return { flow, id: await api.start(flow.name, { x: 1 }) };
}

async function terminated(): Promise<string> {
  const { id } = await started();
  await expectEmptyOk(await api.send('DELETE', `/api/workflow/${id}`));
  return id;
}

describe('PUT /api/workflow/{workflowId}/skiptask/{taskReferenceName}', () => {
  const skip = (id: string, ref: string, body?: unknown, query = '') =>
    api.send('PUT', `/api/workflow/${id}/skiptask/${ref}${query}`, body);

  it('skips a task not scheduled yet: the flow jumps over it and reads its output from the body', async () => {
    const { flow, id } = await started();
    await expectEmptyOk(
      await skip(id, 'second', { taskInput: { why: 'test' }, taskOutput: { result: 'given' } }),
    );
    await api.update(await api.pollEventually(flow.first), 'COMPLETED', { value: 1 });
    const run = await api.workflowEventually(id, 'COMPLETED');
    expect(run.output).toEqual({ result: 'given' });
    expect(run.tasks.map((t) => [t.referenceTaskName, t.status])).toEqual([
      ['first', 'COMPLETED'],
      ['second', 'SKIPPED'],
    ]);
    expect(run.tasks[1]).toMatchObject({ inputData: { why: 'test' }, outputData: { result: 'given' } });
    expect(await api.poll(flow.second)).toBeUndefined();
  });

  it('accepts no body, and the output as a query parameter holding JSON', async () => {
    const { id } = await started();
    await expectEmptyOk(
      await skip(id, 'second', undefined, `?taskOutput=${encodeURIComponent('{"result":"q"}')}`),
    );
    const task = (await api.workflow(id)).tasks.find((t) => t.referenceTaskName === 'second');
    expect(task).toMatchObject({ status: 'SKIPPED', inputData: {}, outputData: { result: 'q' } });
  });

  it('answers 409 to a task already scheduled and to a run not RUNNING', async () => {
    const { id } = await started();
    expect((await errorBody(await skip(id, 'first', {}), 409)).message).toBe(
      `Task first is already scheduled in workflow ${id}; only a task not scheduled yet can be skipped`,
    );
    await expectEmptyOk(await api.send('PUT', `/api/workflow/${id}/pause`));
    expect((await errorBody(await skip(id, 'second', {}), 409)).message).toBe(
      'Workflow is PAUSED; a task can be skipped only in a RUNNING workflow',
    );
  });

  it('answers 400 to an unknown reference, 404 to an unknown run', async () => {
    const { flow, id } = await started();
    expect((await errorBody(await skip(id, 'nope', {}), 400)).message).toBe(
      `Task nope not found in workflow definition ${flow.name}`,
    );
    expect((await errorBody(await skip('no-such-run', 'second', {}), 404)).message).toBe(
      'No such workflow found by id: no-such-run',
    );
  });

  it('answers 400 to malformed JSON, mistyped fields and a query that is not a JSON object', async () => {
    const { id } = await started();
    expect((await errorBody(await skip(id, 'second', '{"taskOutput": '), 400)).message).toMatch(
      /malformed JSON/i,
    );
    const mistyped = await errorBody(await skip(id, 'second', { taskOutput: 'text' }), 400);
    expect(mistyped.message).toBe('Invalid SkipTaskRequest: taskOutput: must be a JSON object');
    expect((await errorBody(await skip(id, 'second', [1]), 400)).message).toBe(
      'Request body must be a JSON object: SkipTaskRequest',
    );
    const query = await errorBody(await skip(id, 'second', undefined, '?taskInput=notjson'), 400);
    expect(query.message).toBe("Query parameter 'taskInput' must be a JSON object, got 'notjson'");
    expect((await api.workflow(id)).tasks.map((t) => t.referenceTaskName)).toEqual(['first']);
  });
});

describe('POST /api/workflow/{workflowId}/resetcallbacks', () => {
  const reset = (id: string) => api.send('POST', `/api/workflow/${id}/resetcallbacks`);

  it('makes a task waiting out its callback pollable now, with the callback cleared', async () => {
    const { flow, id } = await started();
    const first = await api.pollEventually(flow.first);
    await api.update(first, 'IN_PROGRESS', { step: 1 }, { callbackAfterSeconds: 3600 });
    expect(await api.poll(flow.first)).toBeUndefined();
    await expectNoContent(await reset(id));
    const again = await api.pollEventually(flow.first);
    expect(again).toMatchObject({ taskId: first.taskId, pollCount: 2 });
    expect(again.callbackAfterSeconds).toBe(0);
  });

  it('answers 204 when nothing waits, 409 for an ended run, 404 for an unknown one', async () => {
    const { id } = await started();
    await expectNoContent(await reset(id));
    const over = await terminated();
    expect((await errorBody(await reset(over), 409)).message).toBe(
      'Workflow is TERMINATED; the callbacks of a TERMINATED workflow cannot be reset',
    );
    await errorBody(await reset('no-such-run'), 404);
  });
});

describe('POST /api/workflow/{workflowId}/variables', () => {
  const setVariables = (id: string, body?: unknown) =>
    api.send('POST', `/api/workflow/${id}/variables`, body);

  it('merges the body into the variables and answers the run; a SWITCH reads them', async () => {
    const name = uniqueName('vars');
    const task = uniqueName('gate');
    const def: Json = {
      name,
      version: 1,
      variables: {},
      tasks: [
        {
          name: 'set',
          taskReferenceName: 'set',
          type: 'SET_VARIABLE',
          inputParameters: { kept: 1, mode: 'a' },
        },
        { name: task, taskReferenceName: 'gate', type: 'SIMPLE' },
        {
          name: 'route',
          taskReferenceName: 'route',
          type: 'SWITCH',
          evaluatorType: 'value-param',
          expression: 'mode',
          inputParameters: { mode: ref('workflow.variables.mode') },
          decisionCases: {
            b: [
              {
                name: 'bset',
                taskReferenceName: 'bset',
                type: 'SET_VARIABLE',
                inputParameters: { took: 'b' },
              },
            ],
          },
          defaultCase: [],
        },
      ],
    };
    await api.registerWorkflow(def);
    const id = await api.start(name);
    const gate = await api.pollEventually(task);
    const run = await expectJson<ApiWorkflow>(await setVariables(id, { mode: 'b', extra: [1] }));
    expect(run).toMatchObject({
      workflowId: id,
      status: 'RUNNING',
      variables: { kept: 1, mode: 'b', extra: [1] },
    });
    await api.update(gate, 'COMPLETED', {});
    const done = await api.workflowEventually(id, 'COMPLETED');
    expect(done.variables).toMatchObject({ mode: 'b', took: 'b' });
  });

  it('answers 409 for an ended run, 404 for an unknown one', async () => {
    const over = await terminated();
    expect((await errorBody(await setVariables(over, { a: 1 }), 409)).message).toBe(
      'Workflow is TERMINATED; the variables of a TERMINATED workflow cannot be changed',
    );
    await errorBody(await setVariables('no-such-run', { a: 1 }), 404);
  });

  it('answers 400 to a missing body, malformed JSON and a body that is not an object', async () => {
    const { id } = await started();
    expect((await errorBody(await setVariables(id), 400)).message).toBe(
      'Request body is required: workflow variables',
    );
    expect((await errorBody(await setVariables(id, '{"a":'), 400)).message).toMatch(/malformed JSON/i);
    expect((await errorBody(await setVariables(id, [1, 2]), 400)).message).toBe(
      'Request body must be a JSON object: workflow variables',
    );
  });
});
