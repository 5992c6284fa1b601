// /api/event over HTTP (both transports): create (object or array), duplicate 409, update, 404s,
// list, list by event with activeOnly, get by name, delete, and 400 for a handler missing fields.
import { describe, expect, it } from 'vitest';
import { uniqueName } from '../helpers/fixtures.ts';
import { errorBody, useTestServer } from '../helpers/server.ts';
import { ExecutionApi, expectEmptyOk, expectJson } from './execution-api.ts';

const handler = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  event: 'conductor:orders',
  active: true,
  actions: [{ action: 'start_workflow', start_workflow: { name: 'wf', input: { id: '$' + '{orderId}' } } }],
  ...extra,
});

describe('/api/event', () => {
  const server = useTestServer();
  const api = new ExecutionApi(server);

  it('creates from an object or an array, lists, gets, updates and deletes', async () => {
    const [a, b] = [uniqueName('eh'), uniqueName('eh')];
    await expectEmptyOk(await api.send('POST', '/api/event', handler(a)));
    await expectEmptyOk(
      await api.send('POST', '/api/event', [handler(b, { event: 'sqs:other', active: false })]),
    );
    const all = await expectJson<{ name: string }[]>(await api.get('/api/event'));
    expect(all.map((h) => h.name)).toEqual(expect.arrayContaining([a, b]));
    expect(await expectJson(await api.get(`/api/event/handler/${a}`))).toMatchObject(handler(a));
    await expectEmptyOk(await api.send('PUT', '/api/event', handler(a, { description: 'changed' })));
    expect(await expectJson(await api.get(`/api/event/handler/${a}`))).toMatchObject({
      description: 'changed',
    });
    await expectEmptyOk(await api.send('DELETE', `/api/event/${a}`));
    await errorBody(await api.get(`/api/event/handler/${a}`), 404);
  });

  it('lists the handlers of one event, active only by default', async () => {
    const event = `sqs:${uniqueName('q')}`;
    const [on, off] = [uniqueName('on'), uniqueName('off')];
    await expectEmptyOk(await api.send('POST', '/api/event', [handler(on, { event })]));
    await expectEmptyOk(await api.send('POST', '/api/event', [handler(off, { event, active: false })]));
    const names = async (query: string) =>
      (await expectJson<{ name: string }[]>(await api.get(`/api/event/${event}${query}`))).map((h) => h.name);
    expect(await names('')).toEqual([on]);
    expect((await names('?activeOnly=false')).sort()).toEqual([on, off].sort());
  });

  it('answers 409 for a duplicate name and 404 for absent ones, with the error body', async () => {
    const name = uniqueName('dup');
    await expectEmptyOk(await api.send('POST', '/api/event', handler(name)));
    const conflict = await errorBody(await api.send('POST', '/api/event', handler(name)), 409);
    expect(conflict.message).toContain(name);
    await errorBody(await api.send('PUT', '/api/event', handler(uniqueName('none'))), 404);
    await errorBody(await api.send('DELETE', `/api/event/${uniqueName('none')}`), 404);
    await errorBody(await api.get(`/api/event/handler/${uniqueName('none')}`), 404);
  });

  it('answers 400 for a handler without name, event or actions, or with an unknown action', async () => {
    const name = uniqueName('bad');
    for (const bad of [
      { ...handler(name), name: undefined },
      { ...handler(name), event: '' },
      { ...handler(name), actions: [] },
      { ...handler(name), actions: [{ action: 'launch_rocket' }] },
      [],
      'text',
    ]) {
      await errorBody(await api.send('POST', '/api/event', bad), 400);
    }
    await errorBody(await api.get(`/api/event/handler/${name}`), 404);
  });
});
