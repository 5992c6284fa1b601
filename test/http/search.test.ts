/**
 * The search routes over HTTP (docs/api.md "Search", docs/conductor-compat.md §6): workflow search
 * (summaries, v2), search by tasks, task search; the official UI's executions query; paging, sorting, bad
 * input.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueName } from '../helpers/fixtures.ts';
import { errorBody, useTestServer } from '../helpers/server.ts';
import { type Chain, ExecutionApi, expectJson, expectOk } from './execution-api.ts';

const server = useTestServer();
const api = new ExecutionApi(server);

interface Summary {
  workflowId: string;
  workflowType: string;
  status: string;
  startTime: string;
  updateTime: string;
  endTime?: string;
  input: string;
  correlationId?: string;
  taskType?: string;
  taskId?: string;
}
interface Result<T = Summary> {
  totalHits: number;
  results: T[];
}

const search = (path: string, params: Record<string, string | number>) =>
  api.get(`${path}?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`);
const found = async (path: string, params: Record<string, string | number>) =>
  expectJson<Result>(await search(path, params));

describe('search routes', () => {
  let a: Chain;
  let b: Chain;
  const ids: string[] = [];
  const marker = uniqueName('order');
  let before = 0;

  beforeAll(async () => {
    before = Date.now() - 1;
    a = await api.registerChain();
    b = await api.registerChain();
    ids.push(await api.start(a.name, { orderId: marker }, '?correlationId=corr-1'));
    ids.push(await api.start(a.name, { orderId: 'other' }));
    ids.push(await api.start(b.name, {}));
    await expectOk(await api.send('DELETE', `/api/workflow/${ids[1]}?reason=stop`));
  });

  it('GET /api/workflow/search is a route, not a workflow id', async () => {
    const result = await found('/api/workflow/search', { query: `workflowType IN (${a.name},${b.name})` });
    expect(result.totalHits).toBe(3);
  });

  it("answers the official UI's executions query, newest first with ISO times", async () => {
    const result = await found('/api/workflow/search', {
      start: 0,
      size: 15,
      sort: 'startTime:DESC',
      freeText: '*',
      query: `startTime>${before} AND workflowType IN (${a.name},${b.name})`,
    });
    expect(result.results.map((r) => r.workflowId).sort()).toEqual([...ids].sort());
    const times = result.results.map((r) => Date.parse(r.startTime));
    expect(times).toEqual([...times].sort((x, y) => y - x));
    const [first] = result.results;
    expect(first?.startTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(typeof first?.input).toBe('string');
    const terminated = result.results.find((r) => r.workflowId === ids[1]);
    expect(terminated?.status).toBe('TERMINATED');
    expect(terminated?.endTime).toMatch(/Z$/);
  });

  it("answers the SDK's IN form and the quoted = form", async () => {
    const inForm = await found('/api/workflow/search', {
      query: `workflowType IN (${a.name},${b.name}) AND status IN (RUNNING)`,
    });
    expect(inForm.results.map((r) => r.workflowId).sort()).toEqual([ids[0], ids[2]].sort());
    const eqForm = await found('/api/workflow/search', {
      query: `workflowType = "${a.name}" AND status = 'TERMINATED'`,
    });
    expect(eqForm.results.map((r) => r.workflowId)).toEqual([ids[1]]);
    const corr = await found('/api/workflow/search', { query: `correlationId='corr-1'` });
    expect(corr.results.map((r) => r.workflowId)).toEqual([ids[0]]);
  });

  it('free text finds a term in the input, and field:"value"', async () => {
    expect(
      (await found('/api/workflow/search', { freeText: marker })).results.map((r) => r.workflowId),
    ).toEqual([ids[0]]);
    const byField = await found('/api/workflow/search', { freeText: `workflowType:"${b.name}"` });
    expect(byField.results.map((r) => r.workflowId)).toEqual([ids[2]]);
  });

  it('pages stably with exact totalHits', async () => {
    const query = `workflowType IN (${a.name},${b.name})`;
    const pages = await Promise.all(
      [0, 1, 2].map((start) =>
        found('/api/workflow/search', { query, start, size: 1, sort: 'startTime:ASC' }),
      ),
    );
    expect(pages.map((p) => p.totalHits)).toEqual([3, 3, 3]);
    const seen = pages.flatMap((p) => p.results.map((r) => r.workflowId));
    expect([...seen].sort()).toEqual([...ids].sort());
  });

  it('search-v2 returns full runs without tasks', async () => {
    const result = await expectJson<Result<Record<string, unknown>>>(
      await search('/api/workflow/search-v2', { query: `workflowType=${b.name}` }),
    );
    expect(result.totalHits).toBe(1);
    expect(result.results[0]).toMatchObject({ workflowId: ids[2], workflowName: b.name, status: 'RUNNING' });
    expect(result.results[0]?.tasks).toBeUndefined();
    expect(typeof result.results[0]?.startTime).toBe('number');
  });

  it('search-by-tasks finds runs by their tasks', async () => {
    const result = await found('/api/workflow/search-by-tasks', { query: `taskType IN (${a.first})` });
    expect(result.results.map((r) => r.workflowId).sort()).toEqual([ids[0], ids[1]].sort());
    const v2 = await expectJson<Result<Record<string, unknown>>>(
      await search('/api/workflow/search-by-tasks-v2', { query: `taskType=${b.first}` }),
    );
    expect(v2.results.map((r) => r.workflowId)).toEqual([ids[2]]);
  });

  it('task search returns TaskSummary rows and full tasks (v2)', async () => {
    const result = await found('/api/tasks/search', { query: `workflowType=${a.name} AND status=SCHEDULED` });
    expect(result.totalHits).toBe(1);
    expect(result.results[0]).toMatchObject({ workflowId: ids[0], taskType: a.first, status: 'SCHEDULED' });
    expect(
      result.results[0]?.startTime === undefined || typeof result.results[0]?.startTime === 'string',
    ).toBe(true);
    const v2 = await expectJson<Result<Record<string, unknown>>>(
      await search('/api/tasks/search-v2', { query: `taskType=${b.first}` }),
    );
    expect(v2.results[0]).toMatchObject({ workflowInstanceId: ids[2], taskType: b.first });
  });

  it.each([
    ['/api/workflow/search', { size: 5001 }, 'size'],
    ['/api/workflow/search', { start: -1 }, 'start'],
    ['/api/workflow/search', { query: 'status IN (RUNNING' }, 'position 19'],
    ['/api/workflow/search', { query: 'colour=red' }, "unknown field 'colour'"],
    ['/api/workflow/search', { sort: 'startTime:UP' }, 'Invalid sort'],
    ['/api/workflow/search', { query: 'startTime>soon' }, 'startTime'],
    ['/api/workflow/search-v2', { freeText: 'a "open' }, 'position 3'],
    ['/api/workflow/search-by-tasks', { query: 'workflowVersion=1' }, 'unknown field'],
    ['/api/tasks/search', { query: 'taskType=' }, 'position 10'],
    ['/api/tasks/search-v2', { size: 'many' }, 'size'],
  ])('%s with %j is a 400', async (path, params, words) => {
    const body = await errorBody(await search(path, params as Record<string, string | number>), 400);
    expect(JSON.stringify(body)).toContain(words);
  });
});
