/**
 * Starting runs over both transports (docs/conductor-compat.md §1.6, §2.16): POST /api/workflow with a
 * StartWorkflowRequest and POST /api/workflow/{name} with the input as body, both answering the new
 * id as text/plain; bad requests answered 400 with validation paths, unknown definitions 404. Also
 * the SDK's auth probe, POST /api/token, which must get a 404.
 */
import { describe, expect, it } from 'vitest';
import { uniqueName } from '../helpers/fixtures.ts';
import { errorBody, pathsOf, useTestServer } from '../helpers/server.ts';
import { chainedWorkflow, ExecutionApi, expectText } from './execution-api.ts';

const api = new ExecutionApi(useTestServer({ 'service.instance-id': 'workflows-test-node' }));

/** Registers versions 1 and 2 of a workflow whose first tasks differ, so a run shows its version. */
async function twoVersions(): Promise<{ name: string; v1: string; v2: string }> {
  const name = uniqueName('wf');
  const v1 = uniqueName('v1_task');
  const v2 = uniqueName('v2_task');
  await api.registerWorkflow({ ...chainedWorkflow(name, v1, uniqueName('next')), version: 1 });
  await api.registerWorkflow({ ...chainedWorkflow(name, v2, uniqueName('next')), version: 2 });
  return { name, v1, v2 };
}

const startRequest = (body: unknown) => api.send('POST', '/api/workflow', body);

describe('POST /api/workflow', () => {
  it('starts the latest version and answers the new id as text/plain', async () => {
    const { name, v2 } = await twoVersions();
    const id = await expectText(
      await startRequest({ name, input: { x: 5 }, correlationId: 'order-1', priority: 7 }),
    );
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const run = await api.workflow(id);
    expect(run).toMatchObject({
      workflowId: id,
      workflowName: name,
      workflowVersion: 2,
      status: 'RUNNING',
      input: { x: 5 },
      correlationId: 'order-1',
      priority: 7,
    });
    const first = await api.pollEventually(v2);
    expect(first).toMatchObject({ workflowInstanceId: id, inputData: { x: 5 } });
  });

  it('starts the version asked for', async () => {
    const { name, v1 } = await twoVersions();
    const id = await expectText(await startRequest({ name, version: 1 }));
    expect((await api.workflow(id)).workflowVersion).toBe(1);
    expect((await api.pollEventually(v1)).workflowInstanceId).toBe(id);
  });

  it('starts with an empty input when none is given', async () => {
    const { name } = await twoVersions();
    const id = await expectText(await startRequest({ name }));
    expect((await api.workflow(id)).input).toEqual({});
  });

  it('runs an inline definition that was never registered', async () => {
    const name = uniqueName('inline');
    const task = uniqueName('inline_task');
    const id = await expectText(
      await startRequest({
        name,
        workflowDef: chainedWorkflow(name, task, uniqueName('next')),
        input: { x: 1 },
      }),
    );
    expect((await api.workflow(id)).workflowName).toBe(name);
    expect((await api.pollEventually(task)).inputData).toEqual({ x: 1 });
  });

  it('rejects malformed JSON with 400', async () => {
    const body = await errorBody(await startRequest('{"name": "x",'), 400);
    expect(body.message).toMatch(/Malformed JSON/);
  });

  it.each([
    ['no name', {}, 'name'],
    ['a blank name', { name: '  ' }, 'name'],
    ['priority 100', { name: 'x', priority: 100 }, 'priority'],
    ['priority -1', { name: 'x', priority: -1 }, 'priority'],
    ['a fractional priority', { name: 'x', priority: 1.5 }, 'priority'],
    ['a string version', { name: 'x', version: 'abc' }, 'version'],
    ['an input that is an array', { name: 'x', input: [1] }, 'input'],
    ['a null input without an external payload path', { name: 'x', input: null }, 'input'],
    ['a numeric correlationId', { name: 'x', correlationId: 9 }, 'correlationId'],
    ['taskToDomain as a string', { name: 'x', taskToDomain: 'd' }, 'taskToDomain'],
  ])('rejects %s with 400 naming the field', async (_what, request, path) => {
    const body = await errorBody(await startRequest(request), 400);
    expect(pathsOf(body)).toContain(path);
    expect(body.instance).toBe('workflows-test-node');
  });

  it('rejects a body that is not an object, or no body at all, with 400', async () => {
    await errorBody(await startRequest([{ name: 'x' }]), 400);
    await errorBody(await startRequest(undefined), 400);
  });

  it('answers 404 for an unknown workflow name', async () => {
    const body = await errorBody(await startRequest({ name: 'never_registered' }), 404);
    expect(body.message).toMatch(/^No such workflow defined\. name=never_registered/);
  });

  it('answers 404 for an unknown version of a known workflow', async () => {
    const { name } = await twoVersions();
    const body = await errorBody(await startRequest({ name, version: 3 }), 404);
    expect(body.message).toMatch(/No such workflow defined/);
  });
});

describe('POST /api/workflow/{name}', () => {
  it('starts with the body as input and the query as options, answering the id as text/plain', async () => {
    const { name, v1 } = await twoVersions();
    const id = await api.start(name, { x: 9 }, '?version=1&correlationId=c-9&priority=3');
    expect(await api.workflow(id)).toMatchObject({
      workflowVersion: 1,
      input: { x: 9 },
      correlationId: 'c-9',
      priority: 3,
    });
    expect((await api.pollEventually(v1)).inputData).toEqual({ x: 9 });
  });

  it('starts the latest version when none is given', async () => {
    const { name } = await twoVersions();
    expect((await api.workflow(await api.start(name))).workflowVersion).toBe(2);
  });

  it.each([
    ['version=abc', 'version'],
    ['priority=100', 'priority'],
    ['priority=-1', 'priority'],
    ['priority=high', 'priority'],
  ])('rejects %s with 400', async (query, path) => {
    const { name } = await twoVersions();
    const body = await errorBody(await api.send('POST', `/api/workflow/${name}?${query}`, {}), 400);
    expect(pathsOf(body)).toContain(path);
  });

  it('rejects malformed JSON and a body that is not an object with 400', async () => {
    const { name } = await twoVersions();
    await errorBody(await api.send('POST', `/api/workflow/${name}`, '{"x":'), 400);
    await errorBody(await api.send('POST', `/api/workflow/${name}`, [1]), 400);
    await errorBody(await api.send('POST', `/api/workflow/${name}`, '"text"'), 400);
  });

  it('answers 404 for an unknown workflow name', async () => {
    const body = await errorBody(await api.send('POST', '/api/workflow/never_registered', {}), 404);
    expect(body.message).toMatch(/^No such workflow defined/);
  });
});

describe('POST /api/token', () => {
  it('answers 404, which the SDKs read as "an OSS server, carry on without auth"', async () => {
    const response = await api.send('POST', '/api/token', { keyId: 'k', keySecret: 's' });
    await errorBody(response, 404);
  });
});
