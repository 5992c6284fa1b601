/**
 * Reading runs back over both transports (docs/conductor-compat.md §1.6, §2.5, §2.9): the execution with or
 * without tasks, the status summary, the paged task list, running ids by version, correlation
 * lookups, and the decide nudge - with 404 for unknown ids and 400 for bad query values.
 */
import { describe, expect, it } from 'vitest';
import { type Json, uniqueName } from '../helpers/fixtures.ts';
import { errorBody, pathsOf, useTestServer } from '../helpers/server.ts';
import {
  type ApiTask,
  type ApiWorkflow,
  type Chain,
  ExecutionApi,
  expectJson,
  expectOk,
} from './execution-api.ts';

const api = new ExecutionApi(useTestServer());

const registered = (version = 1, name = uniqueName('wf')): Promise<Chain> =>
  api.registerChain({ version }, name);

/** Runs both tasks of a started run and waits for it to complete. */
async function finish(flow: Chain, id: string): Promise<ApiWorkflow> {
  await api.update(await api.pollEventually(flow.first), 'COMPLETED', { value: 1 });
  await api.update(await api.pollEventually(flow.second), 'COMPLETED', { result: 'done' });
  return api.workflowEventually(id, 'COMPLETED');
}

const json = async <T>(path: string) => expectJson<T>(await api.get(path));

describe('GET /api/workflow/{workflowId}', () => {
  it('answers the run with its tasks in seq order by default', async () => {
    const flow = await registered();
    const id = await api.start(flow.name, { x: 1 });
    const run = await finish(flow, id);
    expect(run).toMatchObject({ workflowId: id, workflowName: flow.name, status: 'COMPLETED' });
    expect(run.output).toEqual({ result: 'done' });
    expect(run.tasks.map((t) => [t.seq, t.referenceTaskName, t.status])).toEqual([
      [1, 'first', 'COMPLETED'],
      [2, 'second', 'COMPLETED'],
    ]);
    const full = await json<Json>(`/api/workflow/${id}`);
    expect(typeof full.createTime).toBe('number');
    expect(full.endTime as number).toBeGreaterThan(0);
    expect(full.workflowDefinition).toMatchObject({ name: flow.name });
  });

  it('leaves the tasks out with includeTasks=false', async () => {
    const flow = await registered();
    const id = await api.start(flow.name);
    await api.pollEventually(flow.first);
    expect((await json<ApiWorkflow>(`/api/workflow/${id}?includeTasks=false`)).tasks).toEqual([]);
  });

  it('answers 404 for an unknown id and 400 for a bad includeTasks', async () => {
    const body = await errorBody(await api.get('/api/workflow/no-such-run'), 404);
    expect(body.message).toBe('No such workflow found by id: no-such-run');
    const flow = await registered();
    const id = await api.start(flow.name);
    expect(pathsOf(await errorBody(await api.get(`/api/workflow/${id}?includeTasks=maybe`), 400))).toContain(
      'includeTasks',
    );
  });
});

describe('GET /api/workflow/{workflowId}/status', () => {
  it('answers id, correlation id and status, adding output and variables only when asked', async () => {
    const flow = await registered();
    const id = await api.start(flow.name, {}, '?correlationId=status-c');
    await finish(flow, id);
    expect(await json<Json>(`/api/workflow/${id}/status`)).toEqual({
      workflowId: id,
      correlationId: 'status-c',
      status: 'COMPLETED',
    });
    expect(await json<Json>(`/api/workflow/${id}/status?includeOutput=true&includeVariables=true`)).toEqual({
      workflowId: id,
      correlationId: 'status-c',
      status: 'COMPLETED',
      output: { result: 'done' },
      variables: {},
    });
  });

  it('answers 404 for an unknown id', async () => {
    await errorBody(await api.get('/api/workflow/no-such-run/status'), 404);
  });
});

describe('GET /api/workflow/{workflowId}/tasks', () => {
  it('pages the tasks with start and count, reporting the total', async () => {
    const flow = await registered();
    const id = await api.start(flow.name);
    await finish(flow, id);
    const page = await json<{ totalHits: number; results: ApiTask[] }>(
      `/api/workflow/${id}/tasks?start=1&count=1`,
    );
    expect(page.totalHits).toBe(2);
    expect(page.results.map((t) => t.referenceTaskName)).toEqual(['second']);
    const all = await json<{ totalHits: number; results: ApiTask[] }>(`/api/workflow/${id}/tasks`);
    expect(all.results.map((t) => t.referenceTaskName)).toEqual(['first', 'second']);
  });

  it('filters by status, case-insensitively and with repeated values', async () => {
    const flow = await registered();
    const id = await api.start(flow.name);
    await api.update(await api.pollEventually(flow.first), 'COMPLETED');
    await api.workflowUntil(id, (run) => run.tasks.find((t) => t.referenceTaskName === 'second'));
    const done = await json<{ totalHits: number; results: ApiTask[] }>(
      `/api/workflow/${id}/tasks?status=completed`,
    );
    expect(done.results.map((t) => t.referenceTaskName)).toEqual(['first']);
    const both = await json<{ totalHits: number; results: ApiTask[] }>(
      `/api/workflow/${id}/tasks?status=COMPLETED&status=SCHEDULED`,
    );
    expect(both.totalHits).toBe(2);
  });

  it('rejects an unknown status or a negative start with 400, and answers 404 for an unknown id', async () => {
    const flow = await registered();
    const id = await api.start(flow.name);
    expect(pathsOf(await errorBody(await api.get(`/api/workflow/${id}/tasks?status=DONE`), 400))).toContain(
      'status',
    );
    await errorBody(await api.get(`/api/workflow/${id}/tasks?start=-1`), 400);
    await errorBody(await api.get('/api/workflow/no-such-run/tasks'), 404);
  });
});

describe('GET /api/workflow/running/{name}', () => {
  it('lists the running ids of version 1 unless another version is asked for', async () => {
    const name = uniqueName('running');
    const v1 = await registered(1, name);
    await registered(2, name);
    // Completed runs are not listed.
    await finish(v1, await api.start(name, {}, '?version=1'));
    const one = await api.start(name, {}, '?version=1');
    const two = await api.start(name, {}, '?version=2');

    expect(await json<string[]>(`/api/workflow/running/${name}`)).toEqual([one]);
    expect(await json<string[]>(`/api/workflow/running/${name}?version=2`)).toEqual([two]);
  });

  it('keeps to the startTime/endTime window when both are given', async () => {
    const flow = await registered();
    const before = Date.now() - 1000;
    const id = await api.start(flow.name);
    const after = Date.now() + 1000;
    expect(
      await json<string[]>(`/api/workflow/running/${flow.name}?startTime=${before}&endTime=${after}`),
    ).toEqual([id]);
    expect(
      await json<string[]>(`/api/workflow/running/${flow.name}?startTime=${after}&endTime=${after + 1}`),
    ).toEqual([]);
  });

  it('rejects version=abc with 400', async () => {
    expect(pathsOf(await errorBody(await api.get('/api/workflow/running/any?version=abc'), 400))).toContain(
      'version',
    );
  });
});

describe('correlation lookups', () => {
  async function runsFor(
    correlationId: string,
  ): Promise<{ flow: Chain; running: string; completed: string }> {
    const flow = await registered();
    const completed = await api.start(flow.name, {}, `?correlationId=${correlationId}`);
    await finish(flow, completed);
    const running = await api.start(flow.name, {}, `?correlationId=${correlationId}`);
    return { flow, running, completed };
  }

  it('GET /{name}/correlated/{id} lists only RUNNING runs unless includeClosed=true', async () => {
    const cid = uniqueName('cid');
    const { flow, running, completed } = await runsFor(cid);
    const open = await json<ApiWorkflow[]>(`/api/workflow/${flow.name}/correlated/${cid}`);
    expect(open.map((w) => w.workflowId)).toEqual([running]);
    expect(open[0]?.tasks).toEqual([]);

    const all = await json<ApiWorkflow[]>(
      `/api/workflow/${flow.name}/correlated/${cid}?includeClosed=true&includeTasks=true`,
    );
    expect(all.map((w) => w.workflowId).sort()).toEqual([running, completed].sort());
    expect(all.find((w) => w.workflowId === completed)?.tasks).toHaveLength(2);
  });

  it('GET /{name}/correlated/{id} answers [] for an unknown correlation id', async () => {
    const flow = await registered();
    expect(await json<ApiWorkflow[]>(`/api/workflow/${flow.name}/correlated/nobody`)).toEqual([]);
  });

  it('POST /{name}/correlated answers a map from each correlation id to its runs', async () => {
    const cid = uniqueName('cid');
    const { flow, running, completed } = await runsFor(cid);
    const map = await expectJson<Record<string, ApiWorkflow[]>>(
      await api.send('POST', `/api/workflow/${flow.name}/correlated?includeClosed=true`, [cid, 'nobody']),
    );
    expect(Object.keys(map).sort()).toEqual([cid, 'nobody'].sort());
    expect(map[cid]?.map((w) => w.workflowId).sort()).toEqual([running, completed].sort());
    expect(map.nobody).toEqual([]);
    const open = await expectJson<Record<string, ApiWorkflow[]>>(
      await api.send('POST', `/api/workflow/${flow.name}/correlated`, [cid]),
    );
    expect(open[cid]?.map((w) => w.workflowId)).toEqual([running]);
  });

  it('POST /{name}/correlated rejects a body that is not an array of strings, or malformed JSON', async () => {
    await errorBody(await api.send('POST', '/api/workflow/any/correlated', { id: 'x' }), 400);
    await errorBody(await api.send('POST', '/api/workflow/any/correlated', [1]), 400);
    await errorBody(await api.send('POST', '/api/workflow/any/correlated', '[oops'), 400);
  });
});

describe('PUT /api/workflow/decide/{workflowId}', () => {
  it('answers 200 with an empty body for a known run', async () => {
    const flow = await registered();
    const id = await api.start(flow.name);
    expect(await expectOk(await api.send('PUT', `/api/workflow/decide/${id}`))).toBe('');
    expect((await api.pollEventually(flow.first)).workflowInstanceId).toBe(id);
  });

  it('answers 404 for an unknown run', async () => {
    await errorBody(await api.send('PUT', '/api/workflow/decide/no-such-run'), 404);
  });
});
