/**
 * The one end-to-end timing test of the scheduler: on the real local server with the real clock, a
 * `*\/2 * * * * *` schedule starts a workflow every two seconds, each within a second of its
 * scheduled second. About five seconds of real time; everything else runs on manual clocks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScheduleExecution } from '../../lib/scheduler/model.ts';
import { simpleTask, uniqueName } from '../helpers/fixtures.ts';
import { jsonRequest, startTestServer, type TestServer } from '../helpers/server.ts';
import { eventually } from '../http/execution-api.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({}, { transport: 'node' });
});
afterAll(() => server.close());

describe('a seconds schedule on the local server', () => {
  it('starts a workflow every two seconds, each within a second of its scheduled time', async () => {
    const workflow = uniqueName('e2e_sched_wf');
    const name = uniqueName('e2e_sched');
    const post = (path: string, body: unknown) =>
      server.fetch(`${server.url}${path}`, jsonRequest('POST', body));
    expect(
      (
        await post('/api/metadata/workflow', {
          name: workflow,
          version: 1,
          tasks: [simpleTask('t')],
          schemaVersion: 2,
        })
      ).status,
    ).toBe(200);
    const saved = await post('/api/scheduler/schedules', {
      name,
      cronExpression: '*/2 * * * * *',
      startWorkflowRequest: { name: workflow },
    });
    expect(saved.status).toBe(200);

    const executed = await eventually(async () => {
      const response = await server.fetch(
        `${server.url}/api/scheduler/search/executions?query=scheduleName%3D${name}&sort=scheduledTime:ASC`,
      );
      const { results } = (await response.json()) as { results: ScheduleExecution[] };
      const done = results.filter((e) => e.state === 'EXECUTED');
      if (done.length < 2) throw new Error(`${done.length} fires so far`);
      return done;
    }, 6000);
    await server.fetch(`${server.url}/api/scheduler/schedules/${name}`, { method: 'DELETE' });

    const times = executed.map((e) => e.scheduledTime);
    expect(times.every((t) => t % 2000 === 0)).toBe(true);
    expect(times.slice(1).map((t, i) => t - (times[i] ?? 0))).toEqual(times.slice(1).map(() => 2000));
    for (const e of executed) {
      expect(e.executionTime - e.scheduledTime).toBeGreaterThanOrEqual(0);
      expect(e.executionTime - e.scheduledTime).toBeLessThan(1000);
      const run = await (await server.fetch(`${server.url}/api/workflow/${e.workflowId}`)).json();
      expect(run).toMatchObject({
        workflowName: workflow,
        input: { _startedByScheduler: name, _scheduledTime: e.scheduledTime },
      });
      // The fire's idempotency key is the scheduler's, not the run's: not shown.
      expect(run).not.toHaveProperty('idempotencyKey');
    }
  }, 15_000);
});
