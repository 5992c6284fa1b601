// /api/event over HTTP (both transports): create (object or array), duplicate 409, update, 404s,
// list, list by event with activeOnly, get by name, delete, handlers without actions (accepted), and
// 400 for a handler missing fields.
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

  it('answers 400 for a handler without name or event, with actions that are not a list, or an unknown action', async () => {
    const name = uniqueName('bad');
    for (const [bad, named] of [
      [{ ...handler(name), name: undefined }, /Missing event handler name/],
      [{ ...handler(name), event: '' }, /Missing event location/],
      [{ ...handler(name), actions: { action: 'start_workflow' } }, /actions must be a list/],
      [{ ...handler(name), actions: [{ action: 'launch_rocket' }] }, /actions\[0\]\.action must be one of/],
      [[], /Give 1 to 100 event handlers/],
      ['text', /JSON/],
    ] as [unknown, RegExp][]) {
      expect((await errorBody(await api.send('POST', '/api/event', bad), 400)).message).toMatch(named);
    }
    await errorBody(await api.get(`/api/event/handler/${name}`), 404);
  });

  it('accepts and lists handlers without actions (as Orkes does), which an event runs nothing for', async () => {
    const event = `webhook:${uniqueName('no_actions')}`;
    const [empty, absent] = [uniqueName('empty'), uniqueName('absent')];
    await expectEmptyOk(await api.send('POST', '/api/event', [{ ...handler(empty), event, actions: [] }]));
    const { actions: _, ...withoutActions } = handler(absent);
    await expectEmptyOk(await api.send('POST', '/api/event', { ...withoutActions, event }));
    const listed = await expectJson<{ name: string; actions: unknown[] }[]>(
      await api.get(`/api/event/${event}`),
    );
    expect(listed.map((h) => [h.name, h.actions]).sort()).toEqual(
      [
        [empty, []],
        [absent, []],
      ].sort(),
    );
    await expectEmptyOk(
      await api.send('PUT', '/api/event', {
        ...handler(empty),
        event,
        actions: [],
        description: 'still none',
      }),
    );
    expect(await expectJson(await api.get(`/api/event/handler/${empty}`))).toMatchObject({
      actions: [],
      description: 'still none',
    });
    const monitor = await expectJson<{ results: { name: string; numberOfActions: number }[] }>(
      await api.get('/api/event/execution'),
    );
    expect(monitor.results.find((h) => h.name === empty)?.numberOfActions).toBe(0);
    await expectEmptyOk(await api.send('POST', '/api/event/handleIncomingEvent', { event }));
    // Nothing to carry out: no execution is ever recorded.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await expectJson(await api.get(`/api/event/execution/${empty}`))).toEqual([]);
  });
});
