/**
 * The official SDK's EventClient (docs/conductor-compat.md §1.3), unmodified, against a real local
 * server: addEventHandler (which sends an array of one), updateEventHandler, getAllEventHandlers,
 * getEventHandlersForEvent and removeEventHandler, also of handlers without actions (which the
 * SDK's own suite adds); the execution views the event monitor reads
 * (getAllActiveEventHandlers, getEventExecutions) after an EVENT task ran a handler; and
 * handleIncomingEvent, whose event the handlers carry out as one from a source.
 */
import { EventClient } from '@io-orkes/conductor-javascript';
import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueName } from '../helpers/fixtures.ts';
import { useTestServer } from '../helpers/server.ts';
import { recordingFetch, sdkClient } from './sdk-client.ts';

// Node only: the SDK talks to a real URL with its own fetch.
const server = useTestServer({}, { transport: 'node' });
const recorder = recordingFetch();
let events: EventClient;

beforeAll(async () => {
  events = new EventClient(await sdkClient(server.url, { fetch: recorder.fetch }));
});

describe('EventClient', () => {
  it('adds, updates, lists, lists by event and removes a handler', async () => {
    const name = uniqueName('sdk_eh');
    const event = `conductor:${uniqueName('sdk_event')}`;
    const handler = {
      name,
      event,
      active: true,
      actions: [{ action: 'start_workflow' as const, start_workflow: { name: 'some_wf', input: { a: 1 } } }],
    };
    await events.addEventHandler(handler);
    await events.updateEventHandler({ ...handler, condition: '$.a == 1' });
    const all = await events.getAllEventHandlers();
    expect(all.find((h) => h.name === name)).toMatchObject({ condition: '$.a == 1', event });
    expect((await events.getEventHandlersForEvent(event, true)).map((h) => h.name)).toEqual([name]);
    await events.removeEventHandler(name);
    expect(await events.getEventHandlersForEvent(event, false)).toEqual([]);
    await expect(events.removeEventHandler(name)).rejects.toThrow();
    const routes = recorder.calls.map((c) => `${c.method} ${c.path} ${c.status}`);
    expect(routes).toEqual(
      expect.arrayContaining([
        'POST /api/event 200',
        'PUT /api/event 200',
        'GET /api/event 200',
        `GET /api/event/${encodeURIComponent(event)} 200`,
        `DELETE /api/event/${name} 200`,
        `DELETE /api/event/${name} 404`,
      ]),
    );
  });

  it('adds, lists, gets, updates and removes handlers without actions, as the SDK suite creates them', async () => {
    const event = `conductor:${uniqueName('sdk_no_actions')}`;
    const [first, second] = [uniqueName('sdk_eh'), uniqueName('sdk_eh')];
    const bare = (name: string) => ({ name, event, active: true, actions: [], description: `Test ${name}` });
    await events.addEventHandlers([bare(first), bare(second)]);
    expect((await events.getEventHandlersForEvent(event)).map((h) => h.name).sort()).toEqual(
      [first, second].sort(),
    );
    expect(await events.getEventHandlerByName(first)).toMatchObject({ name: first, event, actions: [] });
    await events.updateEventHandler({ ...bare(first), active: false, description: 'Updated description' });
    expect(await events.getEventHandlerByName(first)).toMatchObject({
      active: false,
      description: 'Updated description',
    });
    await events.removeEventHandler(first);
    await events.removeEventHandler(second);
    expect(await events.getEventHandlersForEvent(event, false)).toEqual([]);
  });

  it('reads the executions of a handler an EVENT task ran, and the handlers with their message counts', async () => {
    const workflow = uniqueName('sdk_publisher');
    const name = uniqueName('sdk_eh');
    const event = `conductor:${workflow}:done`;
    await events.addEventHandler({
      name,
      event,
      active: true,
      actions: [{ action: 'terminate_workflow' as const, terminate_workflow: { workflowId: 'none' } }],
    });
    const post = (path: string, body: unknown) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect(
      (
        await post('/api/metadata/workflow', {
          name: workflow,
          version: 1,
          tasks: [{ name: 'publish', taskReferenceName: 'publish', type: 'EVENT', sink: 'conductor:done' }],
        })
      ).status,
    ).toBe(200);
    expect((await post(`/api/workflow/${workflow}`, {})).status).toBe(200);
    await expect
      .poll(async () => (await events.getEventExecutions(name)).map((e) => [e.event, e.action, e.status]), {
        timeout: 10_000,
      })
      .toEqual([[event, 'terminate_workflow', 'FAILED']]);
    const monitor = await events.getAllActiveEventHandlers();
    expect(monitor.results).toContainEqual({
      name,
      event,
      active: true,
      numberOfActions: 1,
      numberOfMessages: 1,
    });
  });

  it('carries out the handlers of an event posted with handleIncomingEvent, and refuses one naming no event', async () => {
    const workflow = uniqueName('sdk_incoming_wf');
    const name = uniqueName('sdk_eh');
    const event = `webhook:${uniqueName('sdk_incoming')}`;
    const hold = { name: 'hold', taskReferenceName: 'hold', type: 'WAIT' };
    expect(
      (
        await fetch(`${server.url}/api/metadata/workflow`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: workflow, version: 1, tasks: [hold] }),
        })
      ).status,
    ).toBe(200);
    await events.addEventHandler({
      name,
      event,
      active: true,
      actions: [
        {
          action: 'start_workflow' as const,
          start_workflow: { name: workflow, version: 1, input: { said: '$' + '{message}' } },
        },
      ],
    });
    await events.handleIncomingEvent({ event, source: 'integration-test', message: 'test event' });
    await expect
      .poll(
        async () => (await events.getEventExecutions(name, 0)).map((e) => [e.event, e.action, e.status]),
        {
          timeout: 10_000,
        },
      )
      .toEqual([[event, 'start_workflow', 'COMPLETED']]);
    const [execution] = await events.getEventExecutions(name);
    expect(execution).toMatchObject({ name, event, action: 'start_workflow' });
    expect(typeof execution?.id).toBe('string');
    expect(typeof execution?.created).toBe('number');
    expect((await events.getAllActiveEventHandlers()).results).toContainEqual(
      expect.objectContaining({ name, event, active: true, numberOfMessages: 1 }),
    );

    await expect(events.handleIncomingEvent({})).rejects.toThrow(/event/);
    const routes = recorder.calls
      .filter((c) => c.path === '/api/event/handleIncomingEvent')
      .map((c) => `${c.method} ${c.status}`);
    expect(routes).toEqual(['POST 200', 'POST 400']);
  });
});
