// POST /api/workflow/{workflowId}/messages over HTTP (both transports): the gate, every status code,
// an exact queue bound under concurrency, and a push racing termination.
import { describe, expect, it } from 'vitest';
import { uniqueName, workflowDef } from '../helpers/fixtures.ts';
import { errorBody, useTestServer } from '../helpers/server.ts';
import { ExecutionApi, expectText } from './execution-api.ts';

const CAPACITY = 50;

describe('workflow messages (gate on)', () => {
  const server = useTestServer({
    'service.workflow-message-queue.enabled': true,
    'service.workflow-message-queue.maxQueueSize': CAPACITY,
  });
  const api = new ExecutionApi(server);
  const push = (id: string, body: unknown) => api.send('POST', `/api/workflow/${id}/messages`, body);
  const queue = () => server.server.services.stores.messages;

  async function running(): Promise<string> {
    const def = workflowDef({ name: uniqueName('msg') });
    await api.registerWorkflow(def);
    return api.start(String(def.name));
  }

  it('answers the message id as text and stores id, payload and receivedAt', async () => {
    const id = await running();
    const messageId = await expectText(await push(id, { hello: 'world' }));
    expect(messageId).toMatch(/^[0-9a-f-]{36}$/);
    const [stored] = await queue().peek(id, Date.now(), 10);
    expect(stored).toMatchObject({ id: messageId, workflowId: id, payload: { hello: 'world' } });
    expect(new Date(String(stored?.receivedAt)).toISOString()).toBe(stored?.receivedAt);
  });

  it('answers 404 for an absent workflow', async () => {
    const body = await errorBody(await push('no-such-workflow', { a: 1 }), 404);
    expect(body.message).toContain('no-such-workflow');
  });

  it('answers 400 for a body that is not a JSON object', async () => {
    const id = await running();
    for (const bad of [[1, 2], 'text', 42]) await errorBody(await push(id, bad), 400);
    await errorBody(await push(id, undefined), 400);
  });

  it('answers 409 naming the state unless RUNNING, and stores nothing', async () => {
    const id = await running();
    await api.send('DELETE', `/api/workflow/${id}?reason=stop`);
    const body = await errorBody(await push(id, { a: 1 }), 409);
    expect(body.message).toContain('TERMINATED');
    expect(await queue().peek(id, Date.now(), 10)).toEqual([]);
  });

  it('accepts exactly maxQueueSize of 100 concurrent pushes and refuses the rest with 429', async () => {
    const id = await running();
    const responses = await Promise.all(Array.from({ length: 100 }, (_, i) => push(id, { i })));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(CAPACITY);
    expect(statuses.filter((s) => s === 429)).toHaveLength(100 - CAPACITY);
    const refused = responses.find((r) => r.status === 429);
    if (refused) expect((await errorBody(refused, 429)).retryable).toBe(true);
    expect(await queue().peek(id, Date.now(), 1000)).toHaveLength(CAPACITY);
  });

  it('never leaves a stored message for a workflow terminated during pushes', async () => {
    const id = await running();
    const pushes = Array.from({ length: 20 }, (_, i) => push(id, { i }));
    const terminated = api.send('DELETE', `/api/workflow/${id}?reason=race`);
    const statuses = (await Promise.all(pushes)).map((r) => r.status);
    await terminated;
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    expect(await queue().peek(id, Date.now(), 1000)).toEqual([]);
  });

  it('deletes the queue when the workflow ends', async () => {
    const id = await running();
    await expectText(await push(id, { a: 1 }));
    await api.send('DELETE', `/api/workflow/${id}?reason=done`);
    expect(await queue().peek(id, Date.now(), 10)).toEqual([]);
  });

  it('deletes the queue of a workflow removed while running, with terminate-remove or remove', async () => {
    for (const path of ['terminate-remove?reason=gone', 'remove?archiveWorkflow=false']) {
      const id = await running();
      await expectText(await push(id, { a: 1 }));
      expect(await queue().peek(id, Date.now(), 10)).toHaveLength(1);
      const removed = await api.send('DELETE', `/api/workflow/${id}/${path}`);
      expect(removed.status, await removed.text()).toBeLessThan(300);
      expect(await queue().peek(id, Date.now(), 10)).toEqual([]);
      expect((await queue().claims(id)).size).toBe(0);
    }
  });
});

describe('workflow messages (gate off, the default)', () => {
  const server = useTestServer();
  const api = new ExecutionApi(server);

  it('answers 404 with the error body', async () => {
    await errorBody(await api.send('POST', '/api/workflow/some-id/messages', { a: 1 }), 404);
  });
});
