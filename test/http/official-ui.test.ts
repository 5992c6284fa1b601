/**
 * Requests exactly as the official Conductor UI sends them, through the real local server: each
 * fixture is the body (or query) the UI builds from its form, field for field, with the values a
 * user leaves empty as the UI writes them (`""`, null). These are the conformance findings of
 * driving the official UI against this server; each describe block names the UI page.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../lib/model/clock.ts';
import { type Json, ref, simpleTask, uniqueName } from '../helpers/fixtures.ts';
import { errorBody, jsonRequest, useTestServer } from '../helpers/server.ts';
import { ExecutionApi, eventually, expectEmptyOk, expectJson, expectText } from './execution-api.ts';

const server = useTestServer();
const api = new ExecutionApi(server);

/** A registered workflow of one worker task, whose definition takes no input parameters. */
async function registeredWorkflow(prefix = 'ui_wf'): Promise<string> {
  const name = uniqueName(prefix);
  await api.registerWorkflow({ name, version: 1, tasks: [simpleTask('work')], schemaVersion: 2 });
  return name;
}

// ---- Schedule editor (Scheduler > Definitions > Define schedule) ----

/**
 * The schedule form's save of a new schedule: the cron and workflow chosen, everything else left
 * as the form starts it. The workflow's definition has no input parameters, so the input editor is
 * empty (`input: null`), as is the task-to-domain editor; the version picker says "Latest version"
 * (`""`); start and end times are empty (`""`). `undefined` fields (id, idempotency, external path)
 * are dropped by JSON.stringify, as in the UI.
 */
const newScheduleBody = (name: string, workflow: string, cronExpression: string) => ({
  paused: false,
  runCatchupScheduleInstances: false,
  name,
  description: '',
  cronExpression,
  scheduleStartTime: '',
  scheduleEndTime: '',
  startWorkflowRequest: {
    name: workflow,
    version: '',
    input: null,
    correlationId: '',
    taskToDomain: null,
    workflowDef: null,
    priority: '',
  },
  zoneId: 'UTC',
});

/**
 * The same form's save after opening a stored schedule: fields the schedule does not have are left
 * out (the form copies them as undefined), the version is `""` when the schedule names none, and the
 * empty editors give null again.
 */
const editedScheduleBody = (name: string, workflow: string, cronExpression: string) => ({
  paused: true,
  runCatchupScheduleInstances: false,
  name,
  description: 'edited in the UI',
  cronExpression,
  scheduleStartTime: '',
  scheduleEndTime: '',
  startWorkflowRequest: { name: workflow, version: '', input: null, taskToDomain: null },
  zoneId: 'UTC',
});

const saveSchedule = (body: unknown) => api.send('POST', '/api/scheduler/schedules', body);

describe('schedule editor: the empty fields of its form', () => {
  it('saves a new schedule whose start and end times, version, priority and input are left empty', async () => {
    const workflow = await registeredWorkflow();
    const name = uniqueName('ui_schedule');
    const saved = await expectJson<Record<string, unknown>>(
      await saveSchedule(newScheduleBody(name, workflow, '* * * * * *')),
    );
    try {
      expect(saved).toMatchObject({ name, cronExpression: '* * * * * *', paused: false });
      expect(saved).not.toHaveProperty('scheduleStartTime');
      expect(saved).not.toHaveProperty('scheduleEndTime');
      // Stored as Conductor binds it: the empty fields are absent, not "" or null.
      expect(saved.startWorkflowRequest).toEqual({ name: workflow });
      expect(typeof saved.nextRunTime).toBe('number');

      // It fires, and the run it starts has the scheduler's input (the empty input is {}).
      const executed = await eventually(async () => {
        const page = await expectJson<{ results: { state: string; workflowId?: string }[] }>(
          await api.get(
            `/api/scheduler/search/executions?query=${encodeURIComponent(`scheduleName=${name}`)}`,
          ),
        );
        const done = page.results.find((e) => e.state === 'EXECUTED');
        if (!done) throw new Error(`no fire of ${name} yet: ${JSON.stringify(page.results)}`);
        return done;
      }, 5000);
      const run = await api.workflow(executed.workflowId as string);
      expect(run.workflowName).toBe(workflow);
      expect(run.input).toMatchObject({ _startedByScheduler: name });
      expect(run.correlationId).toBeUndefined();
    } finally {
      await api.send('DELETE', `/api/scheduler/schedules/${name}`);
    }
  });

  it('saves an edit of that schedule, and reads back what it stored', async () => {
    const workflow = await registeredWorkflow();
    const name = uniqueName('ui_schedule');
    await expectJson(
      await saveSchedule({ ...newScheduleBody(name, workflow, '0 0 12 * * ?'), paused: true }),
    );
    const edited = await expectJson<Record<string, unknown>>(
      await saveSchedule(editedScheduleBody(name, workflow, '0 30 6 * * ?')),
    );
    expect(edited).toMatchObject({
      cronExpression: '0 30 6 * * ?',
      description: 'edited in the UI',
      paused: true,
    });
    const got = await expectJson<Record<string, unknown>>(await api.get(`/api/scheduler/schedules/${name}`));
    expect(got.startWorkflowRequest).toEqual({ name: workflow });
    expect(got).not.toHaveProperty('scheduleStartTime');
  });

  it('keeps start and end times, a chosen version and a priority the form sends as text', async () => {
    const workflow = await registeredWorkflow();
    const name = uniqueName('ui_schedule');
    const body = newScheduleBody(name, workflow, '0 0 12 * * ?');
    const saved = await expectJson<Record<string, unknown>>(
      await saveSchedule({
        ...body,
        paused: true,
        scheduleStartTime: 1893456000000,
        scheduleEndTime: '1924992000000',
        startWorkflowRequest: { ...body.startWorkflowRequest, version: '1', priority: '5' },
      }),
    );
    expect(saved).toMatchObject({ scheduleStartTime: 1893456000000, scheduleEndTime: 1924992000000 });
    expect(saved.startWorkflowRequest).toEqual({ name: workflow, version: 1, priority: 5 });
  });

  it.each([
    ['a start time that is not a number', { scheduleStartTime: 'tomorrow' }, 'scheduleStartTime'],
    ['a negative end time', { scheduleEndTime: -1 }, 'scheduleEndTime'],
    [
      'a version that is not a number',
      { startWorkflowRequest: { name: 'x', version: 'latest' } },
      'startWorkflowRequest.version',
    ],
    [
      'a priority out of range',
      { startWorkflowRequest: { name: 'x', priority: '100' } },
      'startWorkflowRequest.priority',
    ],
  ])('still answers 400 naming the field for %s', async (_what, change, path) => {
    const workflow = await registeredWorkflow();
    const body = { ...newScheduleBody(uniqueName('ui_schedule'), workflow, '0 0 12 * * ?'), ...change };
    const error = await errorBody(await saveSchedule(body), 400);
    expect(error.validationErrors?.map((e) => e.path)).toContain(path);
  });
});

// ---- Run workflow (Workbench / Run workflow form) ----

describe('run workflow form: POST /api/workflow with its empty fields', () => {
  it('starts the latest version when the version, priority and correlation id are left empty', async () => {
    const workflow = await registeredWorkflow();
    await api.registerWorkflow({ name: workflow, version: 2, tasks: [simpleTask('work')], schemaVersion: 2 });
    // The form's body: its version picker on "Latest version", no input typed, no idempotency key.
    const id = await expectText(
      await server.fetch(
        `${server.url}/api/workflow`,
        jsonRequest('POST', {
          name: workflow,
          version: '',
          correlationId: '',
          priority: '',
          idempotencyKey: '',
        }),
      ),
    );
    const run = await api.workflow(id);
    expect(run).toMatchObject({ workflowVersion: 2, priority: 0, input: {} });
    expect(run.correlationId).toBeUndefined();
  });
});

// ---- Event monitor (Event Handlers > Event monitor > a handler) ----

describe("event monitor: a handler's executions in a time window", () => {
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const events = useTestServer({}, { clock });
  const eventsApi = new ExecutionApi(events);

  /** The UI's detail page asks with its time picker's value in ms; "All time" sends no `from`. */
  const monitor = (handler: string, from?: number) =>
    eventsApi.get(
      `/api/event/execution/${encodeURIComponent(handler)}${from === undefined ? '' : `?from=${from}`}`,
    );

  it('answers the executions of the last 5 minutes with the fields every row of the page reads', async () => {
    const sink = uniqueName('sink');
    const handler = uniqueName('monitored');
    const sender = uniqueName('sender');
    await expectEmptyOk(
      await eventsApi.send('POST', '/api/event', {
        name: handler,
        event: `conductor:${sender}:${sink}`,
        active: true,
        actions: [{ action: 'terminate_workflow', terminate_workflow: { workflowId: 'no-such-run' } }],
      }),
    );
    await eventsApi.registerWorkflow({
      name: sender,
      version: 1,
      tasks: [
        {
          name: 'publish',
          taskReferenceName: 'publish',
          type: 'EVENT',
          sink: `conductor:${sink}`,
          inputParameters: { order: ref('workflow.input.order') },
        },
      ],
    });
    const id = await eventsApi.start(sender, { order: 42 });
    await eventsApi.workflowEventually(id, 'COMPLETED');
    const rows = await eventually(async () => {
      const list = await expectJson<Json[]>(await monitor(handler, 300_000));
      if (list.length === 0 || list.some((e) => e.status === 'IN_PROGRESS'))
        throw new Error('not handled yet');
      return list;
    }, 20_000);

    expect(rows).toHaveLength(1);
    const [row] = rows as [Json];
    expect(row).toMatchObject({ name: handler, action: 'terminate_workflow', status: 'FAILED' });
    expect(typeof row.statusDescription).toBe('string');
    expect(row.statusDescription).toContain('no-such-run');
    expect(row.payload).toMatchObject({ order: 42 });
    expect(row.fullMessagePayload).toEqual({
      _headers: {},
      name: `${sender}:${sink}`,
      id: row.messageId,
      message: JSON.stringify(row.payload),
      event: `conductor:${sender}:${sink}`,
      _receiverHost: null,
    });

    // Ten minutes on, the 5-minute window is empty; "All time" (no `from`) still has the row.
    clock.advance(10 * 60_000);
    expect(await expectJson<Json[]>(await monitor(handler, 300_000))).toEqual([]);
    expect(await expectJson<Json[]>(await monitor(handler, 30 * 60_000))).toHaveLength(1);
    expect(await expectJson<Json[]>(await monitor(handler))).toEqual([row]);
  });
});

// ---- Scheduler executions (Scheduler > Executions, its filters) ----

describe('scheduler executions: the filters of the search page', () => {
  /** The page's request: its paging, its default sort and the query its filters build. */
  const search = async (query: string) =>
    expectJson<{ totalHits: number; results: Json[] }>(
      await api.get(
        `/api/scheduler/search/executions?${new URLSearchParams({
          start: '0',
          size: '15',
          sort: 'startTime:DESC',
          freeText: '*',
          query,
        })}`,
      ),
    );

  it('answers workflowType IN, status IN and startTime > / < as the workflow name, state and scheduled time', async () => {
    const workflow = await registeredWorkflow();
    const name = uniqueName('ui_filtered');
    await expectJson(await saveSchedule(newScheduleBody(name, workflow, '* * * * * *')));
    try {
      await eventually(async () => {
        const page = await search(`scheduleName IN (${name}) AND status IN (EXECUTED)`);
        if (page.totalHits < 2) throw new Error(`${page.totalHits} fires so far`);
      }, 6000);
    } finally {
      await api.send('PUT', `/api/scheduler/schedules/${name}/pause`);
    }
    const now = Date.now();
    const day = 86_400_000;
    // "Last 1 day", one workflow and one status picked: the page's query, clause for clause.
    const page = await search(
      `workflowType IN (${workflow}) AND status IN (EXECUTED,FAILED) AND startTime>${now - day} AND startTime<${now}`,
    );
    expect(page.totalHits).toBeGreaterThanOrEqual(2);
    expect(page.results.every((e) => e.workflowName === workflow && e.state === 'EXECUTED')).toBe(true);
    const times = page.results.map((e) => e.scheduledTime as number);
    expect(times).toEqual([...times].sort((a, b) => b - a));

    expect((await search(`workflowType IN (${uniqueName('other')})`)).totalHits).toBe(0);
    expect((await search(`workflowType IN (${workflow}) AND status IN (FAILED)`)).totalHits).toBe(0);
    expect((await search(`workflowType IN (${workflow}) AND startTime>${now + day}`)).totalHits).toBe(0);
    const [newest] = page.results as [Json];
    const byId = await search(`executionId='${newest.executionId as string}'`);
    expect(byId.results).toEqual([newest]);
  });

  it('still answers 400 naming a field it does not know', async () => {
    const error = await errorBody(await api.get('/api/scheduler/search/executions?query=color%3Dred'), 400);
    expect(error.message).toContain("unknown field 'color'");
    expect(error.message).toContain('workflowType');
  });
});

// ---- Queue monitor and task definition page, after the execution page's terminate ----

describe('queue monitor: tasks of ended runs leave their queue when the run ends', () => {
  /** The queue monitor page reads every queue; a task definition's page its own type's size. */
  const allQueues = async () => expectJson<Record<string, number>>(await api.get('/api/tasks/queue/all'));
  const sizeOf = async (taskType: string) =>
    (await expectJson<Record<string, number>>(await api.get(`/api/tasks/queue/sizes?taskType=${taskType}`)))[
      taskType
    ];

  it('counts a terminated, bulk-terminated or removed run’s waiting task no more, at once', async () => {
    const taskType = uniqueName('ui_queued');
    const workflow = uniqueName('ui_queue_wf');
    await api.registerWorkflow({
      name: workflow,
      version: 1,
      tasks: [{ name: taskType, taskReferenceName: 'wait_for_worker' }],
      schemaVersion: 2,
    });
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push(await api.start(workflow));
    await eventually(async () => {
      if ((await sizeOf(taskType)) !== 4) throw new Error('not queued yet');
    });
    const [terminated, bulkTerminated, removed, last] = ids as [string, string, string, string];

    // The execution page's Terminate: DELETE /api/workflow/{id}, JSON content type, no body.
    const terminate = await server.fetch(`${server.url}/api/workflow/${terminated}`, {
      method: 'DELETE',
      headers: { 'content-type': 'application/json' },
    });
    expect(terminate.status).toBe(200);
    expect(await sizeOf(taskType)).toBe(3);
    expect((await allQueues())[taskType]).toBe(3);

    // The executions list's bulk Terminate: the selected ids as the body.
    const bulk = await expectJson<{ bulkSuccessfulResults: string[] }>(
      await api.send('POST', '/api/workflow/bulk/terminate', [bulkTerminated]),
    );
    expect(bulk.bulkSuccessfulResults).toEqual([bulkTerminated]);
    expect(await sizeOf(taskType)).toBe(2);

    expect((await api.send('DELETE', `/api/workflow/${removed}/remove?archiveWorkflow=false`)).status).toBe(
      200,
    );
    expect(await sizeOf(taskType)).toBe(1);

    // What is left is still served: the last run's task is the one a worker gets.
    const task = await api.poll(taskType);
    expect(task?.workflowInstanceId).toBe(last);
    expect(await allQueues()).not.toHaveProperty(taskType);
    for (const id of [terminated, bulkTerminated]) {
      expect((await api.workflowEventually(id, 'TERMINATED')).tasks[0]?.status).toBe('CANCELED');
    }
  });
});

// ---- Workflow editor's "Save as new version", and the execution page's size ----

describe('workflow editor: save as a new version', () => {
  /** The editor's save: its JSON text wrapped in an array, `?newVersion=true` for a new version. */
  const save = (editorText: string, newVersion: boolean) =>
    server.fetch(
      `${server.url}/api/metadata/workflow${newVersion ? '?newVersion=true' : ''}`,
      jsonRequest('PUT', `[${editorText}]`),
    );
  const versions = async (name: string) =>
    (await expectJson<Json[]>(await api.get(`/api/metadata/workflow?name=${name}`))).map((d) => [
      d.version,
      d.description,
    ]);

  it('stores the edited definition as the next version, leaving the one it was opened from as it was', async () => {
    const name = uniqueName('ui_versions');
    const def = { name, version: 1, description: 'first', tasks: [simpleTask('work')], schemaVersion: 2 };
    await api.registerWorkflow(def);

    const edited = JSON.stringify({ ...def, description: 'second' }, null, 2);
    const saved = await expectJson<{ bulkSuccessfulResults: string[] }>(await save(edited, true));
    expect(saved.bulkSuccessfulResults).toEqual([name]);
    expect(await versions(name)).toEqual([
      [1, 'first'],
      [2, 'second'],
    ]);
    // Opened at version 1 again and saved as new once more: version 3, the latest plus one.
    await expectJson(await save(JSON.stringify({ ...def, description: 'third' }), true));
    // A plain save replaces the version it names.
    await expectJson(await save(JSON.stringify({ ...def, version: 2, description: 'second, fixed' }), false));
    expect(await versions(name)).toEqual([
      [1, 'first'],
      [2, 'second, fixed'],
      [3, 'third'],
    ]);
  });

  it('still answers 400 for an invalid definition, storing nothing', async () => {
    const name = uniqueName('ui_versions');
    const error = await errorBody(await save(JSON.stringify({ name, version: 1, tasks: [] }), true), 400);
    expect(error.message).toContain('not valid');
    expect((await api.get(`/api/metadata/workflow/${name}`)).status).toBe(404);
  });
});

describe('execution page: GET /api/workflow/{id}/size', () => {
  it('answers the run’s size in bytes of its JSON with its tasks, and no limit', async () => {
    const workflow = await registeredWorkflow();
    const id = await api.start(workflow, { note: 'héllo' });
    await api.workflowUntil(id, (run) => (run.tasks.length > 0 ? run : undefined));
    const size = await expectJson<Json>(await api.get(`/api/workflow/${id}/size`));
    const read = await (await api.get(`/api/workflow/${id}`)).arrayBuffer();
    expect(size).toEqual({ sizeBytes: read.byteLength, limitBytes: 0, ratio: 0 });
    await errorBody(await api.get(`/api/workflow/${uniqueName('missing')}/size`), 404);
  });
});
