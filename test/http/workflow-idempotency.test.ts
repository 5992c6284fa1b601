/**
 * Idempotent start (StartWorkflowRequest.idempotencyKey, docs/conductor-compat.md §2.16) on POST
 * /api/workflow and execute: one run per key and workflow name, also under 20 concurrent starts,
 * with the strategies FAIL, RETURN_EXISTING and FAIL_ON_RUNNING; the key and strategy shown on the run
 * and in search results. Also the lenient body the official UI sends (numeric strings, empty ids) and
 * the Orkes lookups the SDK and UI call.
 */
import { describe, expect, it } from 'vitest';
import { type Json, uniqueName } from '../helpers/fixtures.ts';
import { errorBody, pathsOf, useTestServer } from '../helpers/server.ts';
import { systemOnlyWorkflow } from '../helpers/system-only.ts';
import { ExecutionApi, expectJson, expectText } from './execution-api.ts';

const api = new ExecutionApi(useTestServer());

const waiting = (name: string): Json => ({
  name,
  version: 1,
  tasks: [{ name: 'hold', taskReferenceName: 'hold', type: 'WAIT' }],
});

async function registered(def: Json): Promise<string> {
  await api.registerWorkflow(def);
  return def.name as string;
}

const start = (body: Json) => api.send('POST', '/api/workflow', body);

async function runsOf(name: string, correlationId: string): Promise<{ workflowId: string }[]> {
  return expectJson(await api.get(`/api/workflow/${name}/correlated/${correlationId}?includeClosed=true`));
}

describe('POST /api/workflow with an idempotencyKey', () => {
  it('starts one run for 20 concurrent RETURN_EXISTING starts and answers its id to each', async () => {
    const name = await registered(waiting(uniqueName('idem')));
    const correlationId = uniqueName('corr');
    const body = { name, correlationId, idempotencyKey: 'order-1', idempotencyStrategy: 'RETURN_EXISTING' };
    const ids = await Promise.all(Array.from({ length: 20 }, async () => expectText(await start(body))));
    expect(new Set(ids).size).toBe(1);
    expect((await runsOf(name, correlationId)).map((r) => r.workflowId)).toEqual([ids[0]]);
  });

  it('lets exactly one of 20 concurrent FAIL starts through and answers 409 naming its run to the rest', async () => {
    const name = await registered(waiting(uniqueName('idem')));
    const correlationId = uniqueName('corr');
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        start({ name, correlationId, idempotencyKey: 'k', idempotencyStrategy: 'FAIL' }),
      ),
    );
    const ok = responses.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    const id = await expectText(ok[0] as Response);
    for (const response of responses.filter((r) => r.status !== 200)) {
      const body = await errorBody(response, 409);
      expect(body.message).toContain(id);
    }
    expect(await runsOf(name, correlationId)).toHaveLength(1);
  });

  it('defaults to FAIL', async () => {
    const name = await registered(waiting(uniqueName('idem')));
    const first = await expectText(await start({ name, idempotencyKey: 'k' }));
    const body = await errorBody(await start({ name, idempotencyKey: 'k' }), 409);
    expect(body.message).toContain(first);
  });

  it('FAIL_ON_RUNNING answers 409 while the run is not over, and starts a new run once it is', async () => {
    const held = await registered(waiting(uniqueName('idem')));
    await expectText(
      await start({ name: held, idempotencyKey: 'k', idempotencyStrategy: 'FAIL_ON_RUNNING' }),
    );
    const body = await errorBody(
      await start({ name: held, idempotencyKey: 'k', idempotencyStrategy: 'FAIL_ON_RUNNING' }),
      409,
    );
    expect(body.message).toMatch(/is still RUNNING/);

    const quick = await registered(systemOnlyWorkflow(uniqueName('quick')));
    const request = {
      name: quick,
      input: { n: 0 },
      idempotencyKey: 'k',
      idempotencyStrategy: 'FAIL_ON_RUNNING',
    };
    const first = await expectText(await start(request));
    await api.workflowEventually(first, 'COMPLETED');
    const second = await expectText(await start(request));
    expect(second).not.toBe(first);
  });

  it('scopes keys to the workflow name', async () => {
    const a = await registered(waiting(uniqueName('a')));
    const b = await registered(waiting(uniqueName('b')));
    const one = await expectText(await start({ name: a, idempotencyKey: 'same' }));
    const two = await expectText(await start({ name: b, idempotencyKey: 'same' }));
    expect(one).not.toBe(two);
  });

  it('applies to execute too', async () => {
    const name = await registered(systemOnlyWorkflow(uniqueName('idem')));
    const body = { input: { n: 0 }, idempotencyKey: 'exec', idempotencyStrategy: 'RETURN_EXISTING' };
    const first = await expectJson<Json>(await api.send('POST', `/api/workflow/execute/${name}/0`, body));
    const again = await expectJson<Json>(await api.send('POST', `/api/workflow/execute/${name}/0`, body));
    expect(again.workflowId).toBe(first.workflowId);
    expect(again.status).toBe('COMPLETED');
  });

  it('shows the key and strategy a run was started with, on the run and in search results', async () => {
    const name = await registered(waiting(uniqueName('idem_view')));
    const keyed = await expectText(
      await start({ name, idempotencyKey: 'shown', idempotencyStrategy: 'RETURN_EXISTING' }),
    );
    const defaulted = await expectText(await start({ name, idempotencyKey: 'defaulted' }));
    const plain = await expectText(await start({ name }));
    expect(await api.workflow(keyed)).toMatchObject({
      idempotencyKey: 'shown',
      idempotencyStrategy: 'RETURN_EXISTING',
    });
    expect(await api.workflow(defaulted)).toMatchObject({
      idempotencyKey: 'defaulted',
      idempotencyStrategy: 'FAIL',
    });
    const run = await api.workflow(plain);
    expect(run).not.toHaveProperty('idempotencyKey');
    expect(run).not.toHaveProperty('idempotencyStrategy');

    const query = `query=${encodeURIComponent(`workflowType IN (${name})`)}`;
    const runs = await expectJson<{ results: Json[] }>(await api.get(`/api/workflow/search-v2?${query}`));
    const byId = new Map(runs.results.map((r) => [r.workflowId, r]));
    expect(byId.get(keyed)).toMatchObject({
      idempotencyKey: 'shown',
      idempotencyStrategy: 'RETURN_EXISTING',
    });
    expect(byId.get(plain)).not.toHaveProperty('idempotencyKey');
    const summaries = await expectJson<{ results: Json[] }>(await api.get(`/api/workflow/search?${query}`));
    expect(summaries.results.find((r) => r.workflowId === keyed)).toMatchObject({ idempotencyKey: 'shown' });
  });

  it('does not show the keys the service derives itself: execute’s requestId', async () => {
    const name = await registered(systemOnlyWorkflow(uniqueName('idem_request')));
    const requestId = uniqueName('req');
    const path = `/api/workflow/execute/${name}/0?requestId=${requestId}`;
    const first = await expectJson<Json>(await api.send('POST', path, { input: { n: 0 } }));
    const again = await expectJson<Json>(await api.send('POST', path, { input: { n: 0 } }));
    expect(again.workflowId).toBe(first.workflowId);
    const run = await api.workflow(first.workflowId as string);
    expect(run).not.toHaveProperty('idempotencyKey');
    expect(run).not.toHaveProperty('idempotencyStrategy');
  });

  it.each([
    ['an unknown strategy', { idempotencyKey: 'k', idempotencyStrategy: 'SOMETIMES' }, 'idempotencyStrategy'],
    ['a numeric key', { idempotencyKey: 5 }, 'idempotencyKey'],
  ])('rejects %s with 400', async (_what, extra, field) => {
    const body = await errorBody(await start({ name: 'x', ...extra }), 400);
    expect(pathsOf(body)).toContain(field);
  });
});

describe('POST /api/workflow: the body the official UI sends', () => {
  it('accepts numeric strings for numbers and empty strings for absent ids', async () => {
    const name = await registered(waiting(uniqueName('ui')));
    const id = await expectText(
      await start({ name, version: '1', correlationId: '', input: {}, idempotencyKey: '', priority: '5' }),
    );
    const run = await api.workflow(id);
    expect(run).toMatchObject({ workflowVersion: 1, priority: 5 });
    expect(run.correlationId).toBeUndefined();
  });

  it.each([
    ['a non-numeric version', { version: 'one' }, 'version'],
    ['a non-numeric priority', { priority: 'high' }, 'priority'],
    ['a priority string out of range', { priority: '100' }, 'priority'],
  ])('still rejects %s with 400', async (_what, extra, field) => {
    const body = await errorBody(await start({ name: 'x', ...extra }), 400);
    expect(pathsOf(body)).toContain(field);
  });
});

describe('POST /api/workflow/correlated/batch', () => {
  it('answers the runs of the named workflows for each correlation id', async () => {
    const a = await registered(waiting(uniqueName('a')));
    const b = await registered(waiting(uniqueName('b')));
    const c1 = uniqueName('c1');
    const c2 = uniqueName('c2');
    const inA = await expectText(await start({ name: a, correlationId: c1 }));
    const inB = await expectText(await start({ name: b, correlationId: c1 }));
    const answer = await expectJson<Record<string, { workflowId: string }[]>>(
      await api.send('POST', '/api/workflow/correlated/batch', {
        workflowNames: [a, b],
        correlationIds: [c1, c2],
      }),
    );
    expect(answer[c1]?.map((r) => r.workflowId).sort()).toEqual([inA, inB].sort());
    expect(answer[c2]).toEqual([]);
  });

  it.each([
    ['no correlationIds', { workflowNames: ['a'] }],
    ['names that are not strings', { workflowNames: [1], correlationIds: ['c'] }],
    ['an array body', [['a']]],
  ])('rejects %s with 400', async (_what, body) => {
    await errorBody(await api.send('POST', '/api/workflow/correlated/batch', body), 400);
  });

  it('rejects malformed JSON with 400', async () => {
    await errorBody(await api.send('POST', '/api/workflow/correlated/batch', '{"workflowNames":'), 400);
  });
});

describe('GET /api/workflow/{id}?summarize=true', () => {
  it('is accepted and answers the run', async () => {
    const name = await registered(waiting(uniqueName('sum')));
    const id = await expectText(await start({ name }));
    const run = await expectJson<Json>(await api.get(`/api/workflow/${id}?summarize=true`));
    expect(run.workflowId).toBe(id);
  });
});
