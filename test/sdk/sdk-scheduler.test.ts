/**
 * The official SDK's SchedulerClient (docs/conductor-compat.md §7.4), unmodified, against a real local
 * server: save, get, list, pause, resume, delete, next few and execution search, and which routes
 * it called for them.
 */
import { MetadataClient, SchedulerClient, simpleTask, workflow } from '@io-orkes/conductor-javascript';
import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueName } from '../helpers/fixtures.ts';
import { useTestServer } from '../helpers/server.ts';
import { recordingFetch, sdkClient } from './sdk-client.ts';

const workflowName = uniqueName('sdk_sched_wf');
// Node only: the SDK talks to a real URL with its own fetch.
const server = useTestServer({}, { transport: 'node' });
const recorder = recordingFetch();
let scheduler: SchedulerClient;

beforeAll(async () => {
  const client = await sdkClient(server.url, { fetch: recorder.fetch });
  await new MetadataClient(client).registerWorkflowDef(
    workflow(workflowName, [simpleTask('t', 'sdk_sched_task', {})]),
    true,
  );
  scheduler = new SchedulerClient(client);
});

describe('SchedulerClient', () => {
  it('saves, reads, lists, pauses, resumes and deletes a schedule', async () => {
    const name = uniqueName('sdk_sched');
    await scheduler.saveSchedule({
      name,
      // Once a year: nothing fires while the test runs.
      cronExpression: '0 0 0 1 1 ?',
      zoneId: 'Europe/Paris',
      startWorkflowRequest: { name: workflowName, version: 1, input: { from: 'sdk' } },
      description: 'from the SDK',
    });
    const saved = await scheduler.getSchedule(name);
    expect(saved).toMatchObject({
      name,
      cronExpression: '0 0 0 1 1 ?',
      zoneId: 'Europe/Paris',
      paused: false,
    });
    // nextRunTime is a server field the SDK's type leaves out.
    expect((saved as { nextRunTime?: number }).nextRunTime).toBeGreaterThan(Date.now());
    expect((await scheduler.getAllSchedules(workflowName)).map((s) => s.name)).toEqual([name]);

    await scheduler.pauseSchedule(name, 'sdk pause');
    expect(await scheduler.getSchedule(name)).toMatchObject({ paused: true, pausedReason: 'sdk pause' });
    await scheduler.resumeSchedule(name);
    expect((await scheduler.getSchedule(name)).paused).toBe(false);
    await scheduler.deleteSchedule(name);
    await expect(scheduler.getSchedule(name)).rejects.toThrow();

    const calls = recorder.calls.filter((c) => c.path.includes(`/schedules/${name}/`));
    expect(calls.map((c) => [c.method, c.path.split('/').at(-1), c.status])).toEqual([
      ['PUT', 'pause', 200],
      ['PUT', 'resume', 200],
    ]);
  });

  it('previews the next run times, at most five', async () => {
    const start = Date.UTC(2030, 0, 1);
    expect(await scheduler.getNextFewSchedules('0 0 12 * * *', start, undefined, 3)).toEqual([
      Date.UTC(2030, 0, 1, 12),
      Date.UTC(2030, 0, 2, 12),
      Date.UTC(2030, 0, 3, 12),
    ]);
    expect(await scheduler.getNextFewSchedules('*/1 * * * * *', start, undefined, 9)).toHaveLength(5);
  });

  it("takes Spring's cron dialect: a step from a number, L-n, #, names, a macro", async () => {
    const start = Date.UTC(2030, 0, 1); // a Tuesday
    expect(await scheduler.getNextFewSchedules('0/5 * * ? * *', start, undefined, 3)).toEqual([
      start,
      start + 5_000,
      start + 10_000,
    ]);
    expect(await scheduler.getNextFewSchedules('0 0 0 L-3 * ?', start, undefined, 3)).toEqual([
      Date.UTC(2030, 0, 28),
      Date.UTC(2030, 1, 25),
      Date.UTC(2030, 2, 28),
    ]);
    expect(await scheduler.getNextFewSchedules('0 0 9 ? * MON#1', start, undefined, 3)).toEqual([
      Date.UTC(2030, 0, 7, 9),
      Date.UTC(2030, 1, 4, 9),
      Date.UTC(2030, 2, 4, 9),
    ]);
    expect(await scheduler.getNextFewSchedules('@weekly', start, undefined, 1)).toEqual([
      Date.UTC(2030, 0, 6),
    ]);
    await expect(scheduler.getNextFewSchedules('0 0 0 ? * L', start, undefined, 1)).rejects.toThrow();

    const name = uniqueName('sdk_sched_spring');
    await scheduler.saveSchedule({
      name,
      cronExpression: '0/5 * * ? * *',
      // Paused: nothing fires while the test runs.
      paused: true,
      startWorkflowRequest: { name: workflowName, version: 1 },
    });
    expect(await scheduler.getSchedule(name)).toMatchObject({
      cronExpression: '0/5 * * ? * *',
      paused: true,
    });
    await scheduler.deleteSchedule(name);
  });

  it('searches execution records', async () => {
    const result = await scheduler.search(0, 10, '', '*', `scheduleName = ${uniqueName('none')}`);
    expect(result).toEqual({ totalHits: 0, results: [] });
  });
});
