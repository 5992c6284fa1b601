// POST /api/event/handleIncomingEvent over HTTP (both transports; docs/features/events.md): an event
// posted to the service is carried out by its handlers as one from a source is (templated actions,
// conditions, one execution per handler and action, recorded with its payload), each post a
// message of its own; a body that names no event is a 400 with the error body.
import { describe, expect, it } from 'vitest';
import type { EventExecution } from '../../lib/events/model.ts';
import { type Json, uniqueName } from '../helpers/fixtures.ts';
import { errorBody, useTestServer } from '../helpers/server.ts';
import { type ApiWorkflow, ExecutionApi, eventually, expectEmptyOk, expectJson } from './execution-api.ts';

describe('POST /api/event/handleIncomingEvent', () => {
  const server = useTestServer();
  const api = new ExecutionApi(server);

  async function handler(event: string, actions: Json[], extra: Json = {}): Promise<string> {
    const name = uniqueName('incoming');
    await expectEmptyOk(
      await api.send('POST', '/api/event', { name, event, active: true, actions, ...extra }),
    );
    return name;
  }

  const executions = (name: string, count: number) =>
    eventually(async () => {
      const list = await expectJson<(EventExecution & { fullMessagePayload: Json })[]>(
        await api.get(`/api/event/execution/${name}`),
      );
      expect(list.filter((e) => e.status !== 'IN_PROGRESS')).toHaveLength(count);
      return list;
    }, 20_000);

  it('starts a workflow from the posted payload, as a handler of that event does', async () => {
    const workflow = uniqueName('started_by_post');
    await api.registerWorkflow({
      name: workflow,
      version: 1,
      tasks: [{ name: 'hold', taskReferenceName: 'hold', type: 'WAIT' }],
    });
    const event = `webhook:${uniqueName('orders')}`;
    const name = await handler(event, [
      {
        action: 'start_workflow',
        start_workflow: { name: workflow, input: { order: '$' + '{order.id}', from: '$' + '{source}' } },
      },
    ]);
    const other = await handler(`webhook:${uniqueName('others')}`, [
      { action: 'start_workflow', start_workflow: { name: workflow } },
    ]);

    const payload = { event, source: 'integration-test', order: { id: 42 } };
    await expectEmptyOk(await api.send('POST', '/api/event/handleIncomingEvent', payload));
    const [execution] = await executions(name, 1);
    expect(execution).toMatchObject({ name, event, action: 'start_workflow', status: 'COMPLETED', payload });
    expect(execution?.fullMessagePayload).toMatchObject({ event, message: JSON.stringify(payload) });
    const run = await expectJson<ApiWorkflow>(
      await api.get(
        `/api/workflow/${(execution?.output as { workflowId?: string } | undefined)?.workflowId}`,
      ),
    );
    expect(run).toMatchObject({
      workflowName: workflow,
      event,
      input: { order: 42, from: 'integration-test' },
    });
    expect(await expectJson(await api.get(`/api/event/execution/${other}`))).toEqual([]);

    // Each post is a message of its own: the same payload again starts a second run.
    await expectEmptyOk(await api.send('POST', '/api/event/handleIncomingEvent', payload));
    const both = await executions(name, 2);
    expect(new Set(both.map((e) => e.messageId)).size).toBe(2);
  });

  it('evaluates conditions on the payload and skips, and answers 200 for an event no handler listens to', async () => {
    const event = `webhook:${uniqueName('conditional')}`;
    const name = await handler(
      event,
      [{ action: 'terminate_workflow', terminate_workflow: { workflowId: 'none' } }],
      { condition: '$.go === true' },
    );
    await expectEmptyOk(await api.send('POST', '/api/event/handleIncomingEvent', { event, go: false }));
    const [skipped] = await executions(name, 1);
    expect(skipped?.status).toBe('SKIPPED');
    await expectEmptyOk(
      await api.send('POST', '/api/event/handleIncomingEvent', { event: `webhook:${uniqueName('nobody')}` }),
    );
  });

  it('answers 400 for a body that names no event, sending nothing', async () => {
    const cases: [unknown, RegExp][] = [
      [{}, /event: is required/],
      [{ event: '' }, /event/],
      [{ event: '  ' }, /event/],
      [{ event: 7 }, /event: must be a string/],
      [[{ event: 'webhook:x' }], /must be a JSON object: IncomingEvent/],
      [undefined, /Request body is required: IncomingEvent/],
    ];
    for (const [body, named] of cases) {
      const error = await errorBody(await api.send('POST', '/api/event/handleIncomingEvent', body), 400);
      expect(error.message).toMatch(named);
    }
    await errorBody(await api.send('POST', '/api/event/handleIncomingEvent', '{"event":'), 400);
    // The route is POST only: a GET reads the handlers of an event of that name, as it always did.
    expect(await expectJson(await api.get('/api/event/handleIncomingEvent'))).toEqual([]);
  });
});
