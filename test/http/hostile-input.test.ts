/**
 * Regression tests of issue 8's findings (hostile input): bounded work per request, the JSON depth
 * limit on every body, short error messages whatever the input's size, prototype keys stored as
 * plain data, and no task logs written for a refused update. Runs over node:http and Lambda.
 */
import { describe, expect, it } from 'vitest';
import { errorBody, useTestServer } from '../helpers/server.ts';
import { type ApiWorkflow, ExecutionApi, expectJson, expectText } from './execution-api.ts';

/** What one request may take, wall time, on a loaded two-core CI machine (the bench measures the loop). */
const BUDGET_MS = 1500;

function nested(depth: number): unknown {
  let value: unknown = { leaf: true };
  for (let i = 0; i < depth; i++) value = { d: value };
  return value;
}

/** A body nested `depth` levels, built as text (JSON.stringify itself would overflow). */
function deepText(depth: number): string {
  return `{"input":${'{"d":'.repeat(depth)}1${'}'.repeat(depth)}}`;
}

async function timed(request: Promise<Response>): Promise<Response> {
  const started = performance.now();
  const response = await request;
  expect(performance.now() - started).toBeLessThan(BUDGET_MS);
  return response;
}

describe('hostile input', () => {
  const server = useTestServer();
  const api = new ExecutionApi(server);

  describe('bounded work per request', () => {
    it('refuses 100,000 copies of a correlation id shared by three runs with a 400 naming the limit', async () => {
      const flow = await api.registerChain();
      for (let i = 0; i < 3; i++) await api.start(flow.name, {}, '?correlationId=shared');
      const body = JSON.stringify(Array.from({ length: 100_000 }, () => 'shared'));

      const response = await timed(api.send('POST', `/api/workflow/${flow.name}/correlated`, body));
      const error = await errorBody(response, 400);
      expect(error.message).toMatch(/limit of 1000 items/);
      // The server is free at once for everyone else.
      expect((await timed(api.get('/health'))).status).toBe(200);
    });

    it('looks each correlation id up once, however often the body repeats it', async () => {
      const flow = await api.registerChain();
      for (let i = 0; i < 3; i++) await api.start(flow.name, {}, '?correlationId=again');
      const ids = [...Array.from({ length: 999 }, () => 'again'), '__proto__'];

      const response = await timed(api.send('POST', `/api/workflow/${flow.name}/correlated`, ids));
      const found = await expectJson<Record<string, ApiWorkflow[]>>(response);
      expect(Object.keys(found).sort()).toEqual(['__proto__', 'again']);
      expect(found.again).toHaveLength(3);
      expect(Object.getOwnPropertyDescriptor(found, '__proto__')?.value).toEqual([]);
    });

    it('bounds list bodies and repeatable query parameters at 1,000 values', async () => {
      const defs = Array.from({ length: 1001 }, (_, i) => ({ name: `t${i}` }));
      const tooMany = await errorBody(await api.send('POST', '/api/metadata/taskdefs', defs), 400);
      expect(tooMany.message).toMatch(/more than the limit of 1000 items/);

      const types = Array.from({ length: 1001 }, (_, i) => `t${i}`).join(',');
      const query = await errorBody(await api.get(`/api/tasks/queue/sizes?taskType=${types}`), 400);
      expect(query.message).toBe("Query parameter 'taskType' holds more than the limit of 1000 values");
    });
  });

  describe('the JSON depth limit', () => {
    const deep = deepText(10_000);
    const routes: [string, string][] = [
      ['POST', '/api/workflow'],
      ['POST', '/api/workflow/some_flow'],
      ['POST', '/api/tasks'],
      ['POST', '/api/tasks/update-v2'],
      ['POST', '/api/tasks/wf-1/ref-1/COMPLETED'],
      ['POST', '/api/tasks/wf-1/ref-1/COMPLETED/sync'],
      ['POST', '/api/metadata/workflow'],
      ['POST', '/api/metadata/taskdefs'],
      ['PUT', '/api/metadata/workflow'],
      ['PUT', '/api/metadata/taskdefs'],
    ];

    it.each(routes)(
      'answers a 10,000-deep body on %s %s with a 400 naming the limit',
      async (method, path) => {
        const error = await errorBody(await timed(api.send(method, path, deep)), 400);
        expect(error.message).toBe('Request body nests deeper than the limit of 100 levels');
      },
    );

    it('accepts nesting up to the limit: a run started with 90-deep input keeps it', async () => {
      const flow = await api.registerChain();
      const input = { deep: nested(90) };
      const id = await api.start(flow.name, input);
      expect((await api.workflow(id)).input).toEqual(input);
    });

    it('writes no task log for an update refused for its depth', async () => {
      const flow = await api.registerChain();
      await api.start(flow.name);
      const task = await api.pollEventually(flow.first);
      const body = `{"taskId":"${task.taskId}","workflowInstanceId":"${task.workflowInstanceId}","status":"COMPLETED","logs":[{"log":"x"}],"outputData":${deepText(500)}}`;

      await errorBody(await api.send('POST', '/api/tasks', body), 400);
      expect((await api.get(`/api/tasks/${task.taskId}/log`)).status).toBe(204);
      expect((await api.workflow(task.workflowInstanceId)).tasks?.[0]?.status).toBe('IN_PROGRESS');
    });
  });

  describe('error messages quote a short prefix of the input', () => {
    const huge = 'n'.repeat(5 * 1024 * 1024 - 1024);

    it('quotes the first characters of a huge name and its length', async () => {
      const error = await errorBody(await api.send('PUT', '/api/metadata/taskdefs', { name: huge }), 404);
      expect(error.message).toBe(
        `No such taskType found by name: ${'n'.repeat(100)}... (5241856 characters)`,
      );
    });

    it.each([
      ['PUT', '/api/metadata/taskdefs', { name: huge }],
      ['POST', '/api/tasks', { taskId: huge, workflowInstanceId: 'wf', status: 'COMPLETED' }],
      ['POST', '/api/tasks', { taskId: 't', workflowInstanceId: huge, status: 'COMPLETED' }],
      ['POST', '/api/tasks/update-v2', { taskId: huge, workflowInstanceId: 'wf', status: 'COMPLETED' }],
    ])('answers %s %s with a huge unknown name or id as a short 404', async (method, path, body) => {
      const response = await timed(api.send(method, path, body));
      const text = await response.clone().text();
      await errorBody(response, 404);
      expect(text.length).toBeLessThan(1000);
    });

    it('keeps a huge path parameter out of the answer', async () => {
      const response = await api.get(`/api/workflow/${'w'.repeat(6000)}`);
      const text = await response.clone().text();
      await errorBody(response, 404);
      expect(text.length).toBeLessThan(1000);
    });
  });

  describe('prototype keys', () => {
    it('stores __proto__ and constructor keys of inputs and outputs as plain data', async () => {
      const flow = await api.registerChain();
      const input = JSON.parse(
        '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"x":1}',
      ) as Record<string, unknown>;
      const id = await api.start(flow.name, input);
      const task = await api.pollEventually(flow.first);
      const output = '{"__proto__":{"isAdmin":true},"value":"ok"}';
      await expectText(
        await api.send(
          'POST',
          '/api/tasks',
          `{"taskId":"${task.taskId}","workflowInstanceId":"${id}","status":"COMPLETED","outputData":${output}}`,
        ),
      );

      const run = await api.workflowUntil(id, (r) => (r.tasks?.length === 2 ? r : undefined));
      expect(Object.hasOwn(run.input ?? {}, '__proto__')).toBe(true);
      expect(Object.getOwnPropertyDescriptor(run.input, '__proto__')?.value).toEqual({ polluted: 'yes' });
      expect(run.input?.constructor).toEqual({ prototype: { polluted: 'yes' } });
      const first = run.tasks?.[0]?.outputData as Record<string, unknown>;
      expect(Object.hasOwn(first, '__proto__')).toBe(true);
      expect(first.isAdmin).toBeUndefined();
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    });
  });
});
