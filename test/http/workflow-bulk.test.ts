/**
 * /api/workflow/bulk over both transports (docs/conductor-compat.md §1.4, §2.10): every operation
 * over a mix of valid, unknown and conflicting ids answers 200 with each id in exactly one of
 * bulkSuccessfulResults and bulkErrorResults; bodies that are not 1 to 1,000 ids answer 400.
 */
import { describe, expect, it } from 'vitest';
import { errorBody, jsonRequest, useTestServer } from '../helpers/server.ts';
import { type Chain, ExecutionApi, expectJson } from './execution-api.ts';

const server = useTestServer();
const api = new ExecutionApi(server);

interface BulkResponse {
  bulkSuccessfulResults: string[];
  bulkErrorResults: Record<string, string>;
}

async function started(flow?: Chain): Promise<string> {
  const chain = flow ?? (await api.registerChain());
  return api.start(chain.name, { x: 1 });
}

async function bulk(method: string, operation: string, ids: unknown, query = ''): Promise<BulkResponse> {
  return expectJson<BulkResponse>(await api.send(method, `/api/workflow/bulk/${operation}${query}`, ids));
}

describe('bulk operations', () => {
  it('pauses running ids and reports unknown ones, in one 200 answer', async () => {
    const flow = await api.registerChain();
    const a = await started(flow);
    const b = await started(flow);
    const result = await bulk('PUT', 'pause', [a, 'no-such-run', b]);
    expect(result.bulkSuccessfulResults).toEqual([a, b]);
    expect(Object.keys(result.bulkErrorResults)).toEqual(['no-such-run']);
    expect(result.bulkErrorResults['no-such-run']).toMatch(/no-such-run/);
    expect((await api.workflow(a)).status).toBe('PAUSED');
    expect((await api.workflow(b)).status).toBe('PAUSED');
  });

  it('resumes paused ids and reports a running one as a conflict naming its state', async () => {
    const flow = await api.registerChain();
    const paused = await started(flow);
    const running = await started(flow);
    await bulk('PUT', 'pause', [paused]);
    const result = await bulk('PUT', 'resume', [paused, running]);
    expect(result.bulkSuccessfulResults).toEqual([paused]);
    expect(result.bulkErrorResults[running]).toMatch(/RUNNING/);
    expect((await api.workflow(paused)).status).toBe('RUNNING');
  });

  it('terminates with a reason, and reports a COMPLETED run as a conflict', async () => {
    const running = await started();
    const completedId = await completedRun();
    const result = await bulk('POST', 'terminate', [running, completedId, 'missing'], '?reason=cleanup');
    expect(result.bulkSuccessfulResults).toEqual([running]);
    expect(result.bulkErrorResults[completedId]).toMatch(/COMPLETED/);
    expect(result.bulkErrorResults.missing).toMatch(/missing/);
    const run = await api.workflow(running);
    expect(run.status).toBe('TERMINATED');
    expect(run.reasonForIncompletion).toBe('cleanup');
  });

  it('removes ended runs and refuses to archive running ones', async () => {
    const flow = await api.registerChain();
    const running = await started(flow);
    const ended = await started(flow);
    await api.send('DELETE', `/api/workflow/${ended}`);
    const result = await bulk('DELETE', 'remove', [ended, running]);
    expect(result.bulkSuccessfulResults).toEqual([ended]);
    expect(result.bulkErrorResults[running]).toMatch(/RUNNING/);
    await errorBody(await api.get(`/api/workflow/${ended}`), 404);
    expect((await api.workflow(running)).status).toBe('RUNNING');
  });

  it('terminates and removes running runs', async () => {
    const flow = await api.registerChain();
    const a = await started(flow);
    const b = await started(flow);
    const result = await bulk('DELETE', 'terminate-remove', [a, b], '?reason=gone');
    expect(result.bulkSuccessfulResults).toEqual([a, b]);
    expect(result.bulkErrorResults).toEqual({});
    await errorBody(await api.get(`/api/workflow/${a}`), 404);
    await errorBody(await api.get(`/api/workflow/${b}`), 404);
  });

  it('retries failed runs and restarts ended ones, reporting running ids as conflicts', async () => {
    const flow = await api.registerChain();
    const failed = await started(flow);
    await api.update(
      await api.pollEventually(flow.first),
      'FAILED_WITH_TERMINAL_ERROR',
      {},
      { reasonForIncompletion: 'boom' },
    );
    await api.workflowEventually(failed, 'FAILED');
    const running = await started(flow);

    const retried = await bulk('POST', 'retry', [failed, running]);
    expect(retried.bulkSuccessfulResults).toEqual([failed]);
    expect(retried.bulkErrorResults[running]).toMatch(/RUNNING/);
    expect((await api.workflow(failed)).status).toBe('RUNNING');

    await api.send('DELETE', `/api/workflow/${failed}?reason=stop`);
    const restarted = await bulk('POST', 'restart', [failed, running], '?useLatestDefinitions=true');
    expect(restarted.bulkSuccessfulResults).toEqual([failed]);
    expect(restarted.bulkErrorResults[running]).toMatch(/RUNNING/);
    const run = await api.workflow(failed);
    expect(run.status).toBe('RUNNING');
    expect(run.reasonForIncompletion ?? '').toBe('');
  });

  it('operates once on an id listed twice', async () => {
    const id = await started();
    const result = await bulk('PUT', 'pause', [id, id]);
    expect(result.bulkSuccessfulResults).toEqual([id]);
    expect(result.bulkErrorResults).toEqual({});
  });
});

describe('bulk request bodies', () => {
  const send = (body: unknown) => api.send('PUT', '/api/workflow/bulk/pause', body);

  it('answers 400 to an empty list and to more than 1,000 ids', async () => {
    expect((await errorBody(await send([]), 400)).message).toMatch(/1 to 1000 workflow ids, got 0/);
    const many = Array.from({ length: 1001 }, (_, i) => `id-${i}`);
    // The router's bound on any list in a body answers first, naming the limit.
    expect((await errorBody(await send(many), 400)).message).toMatch(/1000/);
  });

  it('answers 400 to a body that is not an array of non-empty strings', async () => {
    await errorBody(await send({ ids: ['a'] }), 400);
    expect((await errorBody(await send(['a', 7]), 400)).message).toMatch(/non-empty string/);
    await errorBody(await send(['']), 400);
  });

  it('answers 400 to malformed JSON and to a missing body', async () => {
    const malformed = await server.fetch(`${server.url}/api/workflow/bulk/pause`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: '["a",',
    });
    await errorBody(malformed, 400);
    await errorBody(await server.fetch(`${server.url}/api/workflow/bulk/pause`, jsonRequest('PUT')), 400);
  });

  it('answers 400 to a query value of the wrong type', async () => {
    const id = await started();
    await errorBody(await api.send('DELETE', '/api/workflow/bulk/remove?archiveWorkflow=perhaps', [id]), 400);
  });
});

async function completedRun(): Promise<string> {
  const flow = await api.registerChain();
  const id = await api.start(flow.name, {});
  await api.update(await api.pollEventually(flow.first), 'COMPLETED', { value: 1 });
  await api.update(await api.pollEventually(flow.second), 'COMPLETED', { result: 'r' });
  await api.workflowEventually(id, 'COMPLETED');
  return id;
}
