/**
 * /api/scheduler over both transports: every route, its bad input (400 naming what is wrong), 404s
 * and the admin credential. The server's clock is manual and the crons daily, so nothing fires.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../lib/model/clock.ts';
import { simpleTask, uniqueName } from '../helpers/fixtures.ts';
import { errorBody, jsonRequest, useTestServer } from '../helpers/server.ts';

const T0 = Date.UTC(2026, 0, 1);
const ADMIN = 'admin-secret';
const server = useTestServer(
  { 'service.scheduler.admin.token': ADMIN, 'service.scheduler.schedulerTimeZone': 'Europe/Berlin' },
  { clock: new ManualClock(T0) },
);
const api = (path: string, init?: RequestInit) => server.fetch(`${server.url}/api/scheduler${path}`, init);

async function registered(): Promise<string> {
  const name = uniqueName('sched');
  const response = await server.fetch(
    `${server.url}/api/metadata/workflow`,
    jsonRequest('POST', { name, version: 1, tasks: [simpleTask('t')], schemaVersion: 2 }),
  );
  expect(response.status).toBe(200);
  return name;
}

async function save(body: Record<string, unknown>): Promise<Response> {
  return api('/schedules', jsonRequest('POST', body));
}

async function saved(extra: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const workflow = await registered();
  const response = await save({
    name: uniqueName('s'),
    cronExpression: '0 0 12 * * ?',
    startWorkflowRequest: { name: workflow, input: { x: 1 } },
    ...extra,
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

describe('schedules', () => {
  it('creates, updates by name (keeping createTime) and reads a schedule with its nextRunTime', async () => {
    const first = await saved({ description: 'one' });
    expect(first).toMatchObject({
      paused: false,
      runCatchupScheduleInstances: false,
      nextRunTime: T0 + 12 * 3600_000,
    });
    expect(first.createTime).toBe(T0);
    const again = await save({
      ...first,
      cronExpression: '0 0 6 * * *',
      zoneId: 'Asia/Tokyo',
      description: 'two',
    });
    expect(await again.json()).toMatchObject({
      description: 'two',
      createTime: T0,
      nextRunTime: Date.UTC(2026, 0, 1, 21),
    });
    const got = await api(`/schedules/${first.name}`);
    expect(await got.json()).toMatchObject({ name: first.name, zoneId: 'Asia/Tokyo', description: 'two' });
  });

  it('answers 404 naming an unknown schedule, and deleting one is fine either way', async () => {
    const body = await errorBody(await api('/schedules/nope_x'), 404);
    expect(body.message).toContain("'nope_x'");
    expect(body.message).toContain('not found');
    const s = await saved();
    expect((await api(`/schedules/${s.name}`, { method: 'DELETE' })).status).toBe(200);
    expect((await api(`/schedules/${s.name}`)).status).toBe(404);
    expect((await api('/schedules/nope_x', { method: 'DELETE' })).status).toBe(200);
    expect((await errorBody(await api('/schedules/nope_x/pause', { method: 'PUT' }), 404)).message).toContain(
      'nope_x',
    );
  });

  it.each([
    [{ cronExpression: '0 0 12 * *' }, 'cronExpression', '6 fields'],
    [{ cronExpression: '61 * * * * *' }, 'cronExpression', 'not a valid cron expression'],
    [{ cronExpression: undefined }, 'cronExpression', 'required'],
    [{ zoneId: 'Mars/Base' }, 'zoneId', 'Mars/Base'],
    [{ cronSchedules: [{ cronExpression: 'x' }] }, 'cronSchedules[0].cronExpression', 'not a valid'],
    [{ startWorkflowRequest: undefined }, 'startWorkflowRequest', 'required'],
    [
      { startWorkflowRequest: { name: 'never_registered_wf' } },
      'startWorkflowRequest.name',
      'not registered',
    ],
    [{ name: '' }, 'name', 'empty'],
    [
      { startWorkflowRequest: { name: 'x', priority: 500 } },
      'startWorkflowRequest.priority',
      'between 0 and 99',
    ],
    [{ scheduleStartTime: 'soon' }, 'scheduleStartTime', 'integer'],
    [{ scheduleStartTime: 10, scheduleEndTime: 5 }, 'scheduleEndTime', 'before'],
  ])('refuses %j with 400 naming %s', async (change, path, words) => {
    const workflow = await registered();
    const body = {
      name: uniqueName('bad'),
      cronExpression: '0 0 12 * * *',
      startWorkflowRequest: { name: workflow },
      ...change,
    };
    const error = await errorBody(await save(body), 400);
    expect(error.message).toContain(words);
    expect(error.validationErrors?.map((e) => e.path)).toContain(path);
  });

  it("saves Spring's cron forms (a step from a number, L, W, #, names) with their next run time", async () => {
    // T0 is Thursday 2026-01-01 00:00Z; the zone of these schedules is UTC.
    for (const [cronExpression, next] of [
      ['0/5 * * ? * *', T0],
      ['0 0 0 LW * *', Date.UTC(2026, 0, 30)],
      ['0 0 0 L-3 * *', Date.UTC(2026, 0, 28)],
      ['0 0 0 ? * FRI#2', Date.UTC(2026, 0, 9)],
      ['0 0 0 ? * 5L', Date.UTC(2026, 0, 30)],
      ['@monthly', T0],
    ] as const) {
      expect(await saved({ cronExpression }), cronExpression).toMatchObject({
        cronExpression,
        nextRunTime: next,
      });
    }
    const error = await errorBody(await save({ ...(await saved()), cronExpression: '0 0 0 ? * L' }), 400);
    expect(error.message).toContain("no day of week before 'L'");
    expect(error.validationErrors?.map((e) => e.path)).toContain('cronExpression');
  });

  it('lists schedules, optionally by workflow name', async () => {
    const s = await saved();
    const workflow = (s.startWorkflowRequest as { name: string }).name;
    const all = (await (await api('/schedules')).json()) as { name: string }[];
    expect(all.map((x) => x.name)).toContain(s.name);
    const mine = (await (await api(`/schedules?workflowName=${workflow}`)).json()) as { name: string }[];
    expect(mine.map((x) => x.name)).toEqual([s.name]);
  });

  it('searches by workflowName, scheduleName, paused and free text, paged and sorted', async () => {
    const a = await saved({ description: 'findme alpha' });
    const workflow = (a.startWorkflowRequest as { name: string }).name;
    await save({ ...a, name: `${a.name}_2`, description: 'findme beta', paused: true });
    const search = async (q: string) =>
      (await (await api(`/schedules/search?${q}`)).json()) as {
        totalHits: number;
        results: { name: string }[];
      };
    expect((await search(`workflowName=${workflow}`)).totalHits).toBe(2);
    expect((await search(`workflowName=${workflow}&paused=true`)).results.map((r) => r.name)).toEqual([
      `${a.name}_2`,
    ]);
    expect((await search(`scheduleName=${a.name}`)).results.map((r) => r.name)).toEqual([a.name]);
    const page = await search(`freeText=FINDME&workflowName=${workflow}&sort=name:DESC&start=1&size=1`);
    expect(page).toMatchObject({ totalHits: 2, results: [{ name: a.name }] });
    await errorBody(await api('/schedules/search?size=x'), 400);
    await errorBody(await api('/schedules/search?paused=maybe'), 400);
  });

  it('pauses with a reason and resumes, over PUT and GET', async () => {
    for (const method of ['PUT', 'GET']) {
      const s = await saved();
      expect((await api(`/schedules/${s.name}/pause?reason=maint`, { method })).status).toBe(200);
      expect(await (await api(`/schedules/${s.name}`)).json()).toMatchObject({
        paused: true,
        pausedReason: 'maint',
      });
      expect((await api(`/schedules/${s.name}/resume`, { method })).status).toBe(200);
      const resumed = (await (await api(`/schedules/${s.name}`)).json()) as Record<string, unknown>;
      expect(resumed.paused).toBe(false);
      expect(resumed.pausedReason).toBeUndefined();
    }
  });

  it('pauses and resumes in bulk, reporting unknown names per name', async () => {
    const s = await saved();
    const response = await api('/bulk/pause', jsonRequest('PUT', [s.name, 'ghost_schedule']));
    expect(await response.json()).toEqual({
      bulkSuccessfulResults: [s.name],
      bulkErrorResults: { ghost_schedule: "Schedule 'ghost_schedule' not found" },
    });
    expect(await (await api(`/schedules/${s.name}`)).json()).toMatchObject({ paused: true });
    const resumed = await (await api('/bulk/resume', jsonRequest('PUT', [s.name]))).json();
    expect(resumed).toEqual({ bulkSuccessfulResults: [s.name], bulkErrorResults: {} });
    await errorBody(await api('/bulk/pause', jsonRequest('PUT', { name: 'x' })), 400);
    await errorBody(await api('/bulk/pause', jsonRequest('PUT', [])), 400);
  });
});

describe('nextFewSchedules', () => {
  it('previews at most 5 run times in the server zone, within the bounds', async () => {
    const q = (s: string) => api(`/nextFewSchedules?${s}`);
    // Noon in Berlin (service.scheduler.schedulerTimeZone) is 11:00Z in winter.
    expect(await (await q('cronExpression=0%200%2012%20*%20*%20*&limit=2')).json()).toEqual([
      Date.UTC(2026, 0, 1, 11),
      Date.UTC(2026, 0, 2, 11),
    ]);
    expect(await (await q('cronExpression=0%200%2012%20*%20*%20*')).json()).toHaveLength(5);
    expect(await (await q('cronExpression=0%200%2012%20*%20*%20*&limit=50')).json()).toHaveLength(5);
    const bounded = await q(
      `cronExpression=0%200%2012%20*%20*%20*&scheduleStartTime=${Date.UTC(2026, 5, 1)}&scheduleEndTime=${Date.UTC(2026, 5, 3)}`,
    );
    expect(await bounded.json()).toEqual([Date.UTC(2026, 5, 1, 10), Date.UTC(2026, 5, 2, 10)]);
    expect((await errorBody(await q('cronExpression=bad'), 400)).message).toContain(
      'Invalid cron expression',
    );
    // Spring's dialect: a step from a number, names, L and #.
    expect(await (await q('cronExpression=0%200%2F20%209%20%3F%20*%20MON-FRI&limit=3')).json()).toEqual([
      Date.UTC(2026, 0, 1, 8),
      Date.UTC(2026, 0, 1, 8, 20),
      Date.UTC(2026, 0, 1, 8, 40),
    ]);
    expect(await (await q('cronExpression=0%200%2012%20L%20*%20%3F&limit=2')).json()).toEqual([
      Date.UTC(2026, 0, 31, 11),
      Date.UTC(2026, 1, 28, 11),
    ]);
    expect(await (await q('cronExpression=0%200%2012%20%3F%20*%20MON%231&limit=2')).json()).toEqual([
      Date.UTC(2026, 0, 5, 11),
      Date.UTC(2026, 1, 2, 11),
    ]);
    const refused = await errorBody(await q('cronExpression=0%200%200%20%3F%20*%201%236'), 400);
    expect(refused.message).toContain('never matches');
    await errorBody(await q('limit=2'), 400);
    await errorBody(await q('cronExpression=0%200%2012%20*%20*%20*&limit=0'), 400);
  });
});

describe('execution search', () => {
  it('answers a SearchResult and refuses a query it cannot read', async () => {
    const response = await api('/search/executions?query=state%3DEXECUTED&start=0&size=10');
    expect(await response.json()).toMatchObject({
      totalHits: expect.any(Number),
      results: expect.any(Array),
    });
    expect((await errorBody(await api('/search/executions?query=color%3Dred'), 400)).message).toContain(
      'color',
    );
  });
});

describe('admin routes', () => {
  it.each(['requeue', 'pause', 'resume'])(
    'refuses /admin/%s with 403 without the admin credential',
    async (op) => {
      await errorBody(await api(`/admin/${op}`), 403);
      await errorBody(await api(`/admin/${op}`, { headers: { 'X-Authorization': 'wrong' } }), 403);
    },
  );

  it('pauses and resumes the scheduler and requeues with the credential', async () => {
    const headers = { 'X-Authorization': ADMIN };
    expect(await (await api('/admin/pause', { headers })).json()).toEqual({ paused: true });
    expect(
      await (await api('/admin/resume', { headers: { Authorization: `Bearer ${ADMIN}` } })).json(),
    ).toEqual({
      paused: false,
    });
    expect(await (await api('/admin/requeue', { headers })).json()).toMatchObject({
      schedules: expect.any(Number),
    });
  });
});

describe('scheduler admin without a configured token', () => {
  const closed = useTestServer();
  it('answers 403 however the request is made', async () => {
    const response = await closed.fetch(`${closed.url}/api/scheduler/admin/pause`, {
      headers: { 'X-Authorization': '' },
    });
    expect((await errorBody(response, 403)).message).toContain('service.scheduler.admin.token');
  });
});
