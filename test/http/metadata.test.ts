/**
 * /api/metadata against a real local server over both transports (docs/conductor-compat.md §1.2,
 * §0.2, §0.3): every route's success, and its answers to malformed, mistyped, incomplete and
 * unknown input.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../lib/model/clock.ts';
import { type Json, ref, simpleTask, taskDef, uniqueName, workflowDef } from '../helpers/fixtures.ts';
import { errorBody, jsonRequest, pathsOf, useTestServer } from '../helpers/server.ts';
import { expectEmptyOk } from './execution-api.ts';

const START = Date.UTC(2026, 0, 1);
const clock = new ManualClock(START);
const server = useTestServer({ 'service.instance-id': 'metadata-test-node' }, { clock });

const send = (method: string, path: string, body?: unknown) =>
  server.fetch(`${server.url}/api/metadata${path}`, jsonRequest(method, body));
const get = (path: string) => server.fetch(`${server.url}/api/metadata${path}`);
const enc = encodeURIComponent;

async function okJson<T>(response: Response): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return JSON.parse(text) as T;
}

async function register(def: Json, query = ''): Promise<void> {
  await expectEmptyOk(await send('POST', `/workflow${query}`, def));
}

async function expectInvalidWorkflow(response: Response, path: string, message?: string | RegExp) {
  const body = await errorBody(response, 400);
  expect(body.message).toMatch(/^The workflow definition is not valid/);
  expect(body.retryable).toBe(false);
  expect(body.instance).toBe('metadata-test-node');
  expect(pathsOf(body)).toContain(path);
  if (message !== undefined) {
    const entry = body.validationErrors?.find((e) => e.path === path);
    expect(entry?.message).toMatch(message);
  }
  return body;
}

interface WorkflowDefShape {
  name: string;
  version: number;
  description?: string;
  tasks: Json[];
  schemaVersion: number;
  timeoutPolicy: string;
  restartable: boolean;
  createTime?: number;
  updateTime?: number;
}

describe('POST /api/metadata/workflow', () => {
  it('registers a definition and answers 200 with an empty body', async () => {
    const def = workflowDef();
    await register(def);
    const stored = await okJson<WorkflowDefShape>(await get(`/workflow/${enc(String(def.name))}`));
    expect(stored.name).toBe(def.name);
    expect(stored.version).toBe(1);
  });

  it('fills Conductor defaults and stamps createTime', async () => {
    const def = workflowDef({ tasks: [{ name: 'plain', taskReferenceName: 'plain' }] });
    await register(def);
    const stored = await okJson<WorkflowDefShape>(await get(`/workflow/${enc(String(def.name))}`));
    expect(stored).toMatchObject({ schemaVersion: 2, timeoutPolicy: 'ALERT_ONLY', restartable: true });
    expect(stored.tasks[0]).toMatchObject({ type: 'SIMPLE', optional: false, inputParameters: {} });
    expect(stored.createTime).toBe(clock.now());
    expect(stored.updateTime).toBeUndefined();
  });

  it('answers 400 naming malformed JSON', async () => {
    const body = await errorBody(await send('POST', '/workflow', '{"name": "broken",'), 400);
    expect(body.message).toMatch(/malformed JSON/i);
    expect(body.retryable).toBe(false);
  });

  it('answers 400 to an empty body', async () => {
    await expectInvalidWorkflow(await send('POST', '/workflow'), 'body');
  });

  it('rejects a version that is not an integer', async () => {
    const body = await expectInvalidWorkflow(
      await send('POST', '/workflow', workflowDef({ version: 'x' })),
      'version',
      /must be an integer/,
    );
    expect(body.validationErrors).toContainEqual({
      path: 'version',
      message: 'must be an integer',
      invalidValue: 'x',
    });
  });

  it('rejects tasks given as an object instead of a list', async () => {
    await expectInvalidWorkflow(await send('POST', '/workflow', workflowDef({ tasks: {} })), 'tasks');
  });

  it('rejects a definition without a name', async () => {
    const { name: _omitted, ...def } = workflowDef();
    await expectInvalidWorkflow(await send('POST', '/workflow', def), 'name', /name cannot be null or empty/);
  });

  it('rejects an empty task list', async () => {
    await expectInvalidWorkflow(
      await send('POST', '/workflow', workflowDef({ tasks: [] })),
      'tasks',
      /cannot be empty/,
    );
  });

  it('rejects a task without a taskReferenceName', async () => {
    await expectInvalidWorkflow(
      await send('POST', '/workflow', workflowDef({ tasks: [{ name: 'nameless_ref' }] })),
      'tasks[0].taskReferenceName',
      /taskReferenceName name cannot be empty or null/,
    );
  });

  it('rejects schemaVersion other than 2', async () => {
    await expectInvalidWorkflow(
      await send('POST', '/workflow', workflowDef({ schemaVersion: 1 })),
      'schemaVersion',
      /schemaVersion: 2 is only supported/,
    );
  });

  it('answers 409 when the name and version already exist', async () => {
    const def = workflowDef();
    await register(def);
    const body = await errorBody(await send('POST', '/workflow', def), 409);
    expect(body.message).toBe(`Workflow with ${def.name}.1 already exists!`);
    expect(body.retryable).toBe(false);
  });

  it('replaces an existing version with overwrite=true, keeping createTime and setting updateTime', async () => {
    const def = workflowDef({ description: 'before' });
    await register(def);
    const created = clock.now();
    clock.advance(1000);
    await register({ ...def, description: 'after' }, '?overwrite=true');
    const stored = await okJson<WorkflowDefShape>(await get(`/workflow/${enc(String(def.name))}`));
    expect(stored.description).toBe('after');
    expect(stored.createTime).toBe(created);
    expect(stored.updateTime).toBe(created + 1000);
  });

  it('answers 400 to an overwrite flag that is not a boolean', async () => {
    const body = await errorBody(await send('POST', '/workflow?overwrite=maybe', workflowDef()), 400);
    expect(body.message).toMatch(/'overwrite' must be true or false/);
    expect(pathsOf(body)).toEqual(['overwrite']);
  });

  it.each([
    ['two top-level tasks', [simpleTask('dup'), simpleTask('dup')]],
    [
      'a SWITCH decision case',
      [
        {
          name: 'switch',
          taskReferenceName: 'dup',
          type: 'SWITCH',
          evaluatorType: 'value-param',
          expression: 'kind',
          inputParameters: { kind: ref('workflow.input.kind') },
          decisionCases: { a: [simpleTask('dup')] },
        },
      ],
    ],
    [
      'a FORK_JOIN branch',
      [
        { name: 'fork', taskReferenceName: 'fork', type: 'FORK_JOIN', forkTasks: [[simpleTask('dup')]] },
        { name: 'join', taskReferenceName: 'join', type: 'JOIN', joinOn: ['dup'] },
        simpleTask('dup'),
      ],
    ],
    [
      'a DO_WHILE loop body',
      [
        {
          name: 'loop',
          taskReferenceName: 'loop',
          type: 'DO_WHILE',
          loopCondition: 'false',
          loopOver: [simpleTask('inner'), simpleTask('inner')],
        },
      ],
    ],
  ])('rejects a taskReferenceName used twice, in %s', async (_where, tasks) => {
    const body = await expectInvalidWorkflow(
      await send('POST', '/workflow', workflowDef({ tasks })),
      'tasks',
      /should be unique across tasks/,
    );
    expect(body.message).toMatch(/taskReferenceName: (dup|inner) should be unique/);
  });

  it.each([
    [
      'SWITCH without expression',
      {
        name: 's',
        taskReferenceName: 's',
        type: 'SWITCH',
        evaluatorType: 'value-param',
        decisionCases: { a: [simpleTask('a1')] },
      },
      'tasks[0].expression',
      /expression field is required for taskType: SWITCH/,
    ],
    [
      'DO_WHILE without loopCondition',
      { name: 'd', taskReferenceName: 'd', type: 'DO_WHILE', loopOver: [simpleTask('d1')] },
      'tasks[0].loopCondition',
      /loopCondition field is required for taskType: DO_WHILE/,
    ],
    [
      'SUB_WORKFLOW without subWorkflowParam',
      { name: 'sub', taskReferenceName: 'sub', type: 'SUB_WORKFLOW' },
      'tasks[0].subWorkflowParam',
      /subWorkflowParam field is required for taskType: SUB_WORKFLOW/,
    ],
    [
      'TERMINATE with an unknown terminationStatus',
      {
        name: 't',
        taskReferenceName: 't',
        type: 'TERMINATE',
        inputParameters: { terminationStatus: 'DONE' },
      },
      'tasks[0].inputParameters.terminationStatus',
      /terminationStatus must be COMPLETED, FAILED or TERMINATED/,
    ],
  ])('rejects %s, naming the missing parameter', async (_case, task, path, message) => {
    await expectInvalidWorkflow(
      await send('POST', '/workflow', workflowDef({ tasks: [task] })),
      path,
      message,
    );
  });

  it('rejects an input reference to a task that is not in the definition', async () => {
    const tasks = [
      simpleTask('first'),
      simpleTask('second', { inputParameters: { x: ref('unknownRef.output.x') } }),
    ];
    const body = await expectInvalidWorkflow(
      await send('POST', '/workflow', workflowDef({ tasks })),
      'tasks[1].inputParameters',
      /unknownRef referenced in the input of task second is not defined/,
    );
    expect(body.validationErrors).toContainEqual(expect.objectContaining({ invalidValue: 'unknownRef' }));
  });

  it('accepts input references to the workflow and to other tasks of the definition', async () => {
    const tasks = [
      simpleTask('otherRef', { inputParameters: { a: ref('workflow.input.x') } }),
      simpleTask('second', { inputParameters: { b: ref('otherRef.output'), c: 'literal' } }),
    ];
    await register(workflowDef({ tasks }));
  });

  it('rejects a task of an unknown type until a task definition of that name is registered', async () => {
    const taskName = uniqueName('custom');
    const def = workflowDef({ tasks: [{ name: taskName, taskReferenceName: 'custom', type: 'MY_CUSTOM' }] });
    await expectInvalidWorkflow(
      await send('POST', '/workflow', def),
      'tasks[0].type',
      /MY_CUSTOM is not a known task type/,
    );
    await expectEmptyOk(await send('POST', '/taskdefs', [taskDef({ name: taskName })]));
    await register(def);
  });
});

describe('POST /api/metadata/workflow/validate', () => {
  it('answers 200 with an empty body for a valid definition and stores nothing', async () => {
    const def = workflowDef();
    await expectEmptyOk(await send('POST', '/workflow/validate', def));
    await errorBody(await get(`/workflow/${enc(String(def.name))}`), 404);
  });

  it('answers 400 with the validation errors of an invalid definition', async () => {
    await expectInvalidWorkflow(
      await send('POST', '/workflow/validate', workflowDef({ tasks: [{ taskReferenceName: 'r' }] })),
      'tasks[0].name',
      /WorkflowTask name cannot be empty or null/,
    );
  });

  it('answers 400 naming malformed JSON', async () => {
    const body = await errorBody(await send('POST', '/workflow/validate', 'not json'), 400);
    expect(body.message).toMatch(/malformed JSON/i);
  });
});

describe('PUT /api/metadata/workflow', () => {
  it('upserts an array and answers a BulkResponse of names', async () => {
    const existing = workflowDef({ description: 'old' });
    await register(existing);
    const created = clock.now();
    clock.advance(500);
    const fresh = workflowDef();
    const result = await okJson<{ bulkErrorResults: Json; bulkSuccessfulResults: string[] }>(
      await send('PUT', '/workflow', [{ ...existing, description: 'new' }, fresh]),
    );
    expect(result).toEqual({ bulkErrorResults: {}, bulkSuccessfulResults: [existing.name, fresh.name] });
    const updated = await okJson<WorkflowDefShape>(await get(`/workflow/${enc(String(existing.name))}`));
    expect(updated).toMatchObject({ description: 'new', createTime: created, updateTime: created + 500 });
    const added = await okJson<WorkflowDefShape>(await get(`/workflow/${enc(String(fresh.name))}`));
    expect(added.createTime).toBe(clock.now());
  });

  it('rejects the whole array when one definition is invalid, storing nothing', async () => {
    const good = workflowDef();
    const bad = workflowDef({ tasks: [{ name: 'no_ref' }] });
    await expectInvalidWorkflow(
      await send('PUT', '/workflow', [good, bad]),
      '[1].tasks[0].taskReferenceName',
    );
    await errorBody(await get(`/workflow/${enc(String(good.name))}`), 404);
  });

  it('rejects a single definition that is not wrapped in an array', async () => {
    await expectInvalidWorkflow(await send('PUT', '/workflow', workflowDef()), 'body', /non-empty array/);
  });

  it('rejects an empty array', async () => {
    await expectInvalidWorkflow(await send('PUT', '/workflow', []), 'body', /non-empty array/);
  });

  it('answers 400 naming malformed JSON', async () => {
    const body = await errorBody(await send('PUT', '/workflow', '[{'), 400);
    expect(body.message).toMatch(/malformed JSON/i);
  });
});

describe('GET /api/metadata/workflow/{name}', () => {
  let name: string;

  beforeAll(async () => {
    name = uniqueName('versions');
    await register(workflowDef({ name, version: 1, description: 'v1' }));
    await register(workflowDef({ name, version: 2, description: 'v2' }));
  });

  it('answers the latest version when no version is asked for', async () => {
    expect((await okJson<WorkflowDefShape>(await get(`/workflow/${name}`))).version).toBe(2);
  });

  it('answers the asked version', async () => {
    const def = await okJson<WorkflowDefShape>(await get(`/workflow/${name}?version=1`));
    expect(def).toMatchObject({ version: 1, description: 'v1' });
  });

  it('treats an empty version parameter as absent', async () => {
    expect((await okJson<WorkflowDefShape>(await get(`/workflow/${name}?version=`))).version).toBe(2);
  });

  it('answers 400 to a version that is not a number', async () => {
    const body = await errorBody(await get(`/workflow/${name}?version=abc`), 400);
    expect(body.message).toMatch(/'version' must be an integer/);
    expect(body.validationErrors).toEqual([
      { path: 'version', message: 'must be an integer', invalidValue: 'abc' },
    ]);
  });

  it('answers 404 for an unknown name', async () => {
    const body = await errorBody(await get('/workflow/no_such_workflow_here'), 404);
    expect(body.message).toBe('No such workflow found by name: no_such_workflow_here, version: latest');
    expect(body.retryable).toBe(false);
  });

  it('answers 404 for an unknown version of a known name', async () => {
    const body = await errorBody(await get(`/workflow/${name}?version=9`), 404);
    expect(body.message).toBe(`No such workflow found by name: ${name}, version: 9`);
  });
});

describe('GET /api/metadata/workflow (listing)', () => {
  let plain: string;
  let agent: string;

  beforeAll(async () => {
    plain = uniqueName('listing');
    agent = uniqueName('agent');
    await register(workflowDef({ name: plain, version: 1 }));
    await register(workflowDef({ name: plain, version: 2 }));
    await register(workflowDef({ name: agent, metadata: { classifier: 'agent' } }));
  });

  const versionsOf = (defs: WorkflowDefShape[], name: string) =>
    defs.filter((d) => d.name === name).map((d) => d.version);

  it('answers every version of every definition with its tasks', async () => {
    const defs = await okJson<WorkflowDefShape[]>(await get('/workflow'));
    expect(versionsOf(defs, plain)).toEqual([1, 2]);
    expect(versionsOf(defs, agent)).toEqual([1]);
    expect(defs.find((d) => d.name === plain)?.tasks).toHaveLength(1);
  });

  it('drops the task lists with short=true', async () => {
    const defs = await okJson<WorkflowDefShape[]>(await get('/workflow?short=true&metadata=true'));
    const mine = defs.filter((d) => d.name === plain);
    expect(mine).toHaveLength(2);
    for (const def of mine) expect(def.tasks).toEqual([]);
  });

  it("keeps only one name's versions with name=X", async () => {
    const defs = await okJson<WorkflowDefShape[]>(await get(`/workflow?includeShared=false&name=${plain}`));
    expect(defs.map((d) => [d.name, d.version])).toEqual([
      [plain, 1],
      [plain, 2],
    ]);
  });

  it('keeps plain definitions with classifier=workflow and agent definitions with classifier=agent', async () => {
    const workflows = await okJson<WorkflowDefShape[]>(await get('/workflow?classifier=workflow'));
    expect(versionsOf(workflows, plain)).toEqual([1, 2]);
    expect(versionsOf(workflows, agent)).toEqual([]);
    const agents = await okJson<WorkflowDefShape[]>(await get('/workflow?classifier=agent'));
    expect(versionsOf(agents, agent)).toEqual([1]);
    expect(versionsOf(agents, plain)).toEqual([]);
  });

  it('treats empty parameter values as absent', async () => {
    const defs = await okJson<WorkflowDefShape[]>(await get('/workflow?name=&short=&classifier='));
    expect(versionsOf(defs, plain)).toEqual([1, 2]);
    expect(versionsOf(defs, agent)).toEqual([1]);
    expect(defs.find((d) => d.name === plain)?.tasks).toHaveLength(1);
  });

  it('answers 400 to a short flag that is not a boolean', async () => {
    const body = await errorBody(await get('/workflow?short=yes'), 400);
    expect(body.message).toMatch(/'short' must be true or false/);
  });

  it('answers an empty list for a name that has no versions', async () => {
    expect(await okJson<unknown[]>(await get('/workflow?name=nothing_by_this_name'))).toEqual([]);
  });
});

describe('the workflow name and version listings', () => {
  let name: string;
  let secondCreated: number;
  let firstCreated: number;

  beforeAll(async () => {
    name = uniqueName('names');
    secondCreated = clock.now();
    await register(workflowDef({ name, version: 2 }));
    clock.advance(10);
    firstCreated = clock.now();
    await register(workflowDef({ name, version: 1 }));
  });

  it('GET /workflow/names-and-versions answers summaries per name with versions sorted', async () => {
    const all = await okJson<Record<string, Json[]>>(await get('/workflow/names-and-versions'));
    expect(all[name]).toEqual([
      { name, version: 1, createTime: firstCreated },
      { name, version: 2, createTime: secondCreated },
    ]);
  });

  it('GET /workflow/names answers the registered names', async () => {
    const names = await okJson<string[]>(await get('/workflow/names'));
    expect(names).toContain(name);
    expect(names.filter((n) => n === name)).toHaveLength(1);
  });

  it('GET /workflow/latest-versions answers only the highest version of each name', async () => {
    const defs = await okJson<WorkflowDefShape[]>(await get('/workflow/latest-versions'));
    expect(defs.filter((d) => d.name === name).map((d) => d.version)).toEqual([2]);
  });

  it('GET /workflow/{name}/versions answers the summaries of one name in ascending order', async () => {
    const versions = await okJson<Json[]>(await get(`/workflow/${name}/versions`));
    expect(versions.map((v) => v.version)).toEqual([1, 2]);
    expect(versions[0]).toMatchObject({ name, createTime: firstCreated });
  });

  it('GET /workflow/{name}/versions answers 404 for an unknown name', async () => {
    const body = await errorBody(await get('/workflow/never_registered/versions'), 404);
    expect(body.message).toBe('No such workflow found by name: never_registered');
  });
});

describe('DELETE /api/metadata/workflow/{name}/{version}', () => {
  it('deletes a version and makes the previous version the latest', async () => {
    const name = uniqueName('delete');
    await register(workflowDef({ name, version: 1 }));
    await register(workflowDef({ name, version: 2 }));
    await expectEmptyOk(await send('DELETE', `/workflow/${name}/2`));
    expect((await okJson<WorkflowDefShape>(await get(`/workflow/${name}`))).version).toBe(1);
    await errorBody(await get(`/workflow/${name}?version=2`), 404);
  });

  it('answers 404 for a version that does not exist, also on a second delete', async () => {
    const name = uniqueName('delete');
    await register(workflowDef({ name }));
    await expectEmptyOk(await send('DELETE', `/workflow/${name}/1`));
    const body = await errorBody(await send('DELETE', `/workflow/${name}/1`), 404);
    expect(body.message).toBe(`No such workflow definition found by name: ${name}, version: 1`);
  });

  it('answers 400 to a version that is not a number', async () => {
    const body = await errorBody(await send('DELETE', '/workflow/some_name/abc'), 400);
    expect(body.message).toMatch(/Version must be a positive integer, got 'abc'/);
    expect(pathsOf(body)).toEqual(['version']);
  });
});

interface TaskDefShape {
  name: string;
  description?: string;
  retryCount: number;
  retryLogic: string;
  retryDelaySeconds: number;
  responseTimeoutSeconds: number;
  timeoutPolicy: string;
  createTime?: number;
  updateTime?: number;
}

describe('POST /api/metadata/taskdefs', () => {
  async function expectInvalidTaskDefs(response: Response, path: string, message: RegExp) {
    const body = await errorBody(response, 400);
    expect(body.message).toMatch(/^The task definitions are not valid/);
    expect(body.retryable).toBe(false);
    expect(body.validationErrors?.find((e) => e.path === path)?.message).toMatch(message);
    return body;
  }

  it('registers an array of definitions, filling defaults and createTime', async () => {
    const def = taskDef();
    await expectEmptyOk(await send('POST', '/taskdefs', [def]));
    const stored = await okJson<TaskDefShape>(await get(`/taskdefs/${def.name}`));
    expect(stored).toMatchObject({
      name: def.name,
      retryCount: 3,
      retryLogic: 'FIXED',
      retryDelaySeconds: 60,
      responseTimeoutSeconds: 3600,
      timeoutPolicy: 'TIME_OUT_WF',
      createTime: clock.now(),
    });
    expect(stored.updateTime).toBeUndefined();
  });

  it('answers 400 naming malformed JSON', async () => {
    const body = await errorBody(await send('POST', '/taskdefs', '[{"name":'), 400);
    expect(body.message).toMatch(/malformed JSON/i);
  });

  it('rejects an empty array', async () => {
    await expectInvalidTaskDefs(await send('POST', '/taskdefs', []), 'body', /at least one task definition/);
  });

  it('rejects a single definition that is not wrapped in an array', async () => {
    await expectInvalidTaskDefs(await send('POST', '/taskdefs', taskDef()), 'body', /non-empty array/);
  });

  it.each([
    ['a negative retryCount', { retryCount: -1 }, '[0].retryCount', /greater than or equal to 0/],
    ['a retryCount given as a string', { retryCount: '3' }, '[0].retryCount', /must be an integer/],
    [
      'a responseTimeoutSeconds of 0',
      { responseTimeoutSeconds: 0 },
      '[0].responseTimeoutSeconds',
      /than or equal to 1/,
    ],
    [
      'a timeoutSeconds below the default responseTimeoutSeconds',
      { timeoutSeconds: 10 },
      '[0].responseTimeoutSeconds',
      /responseTimeoutSeconds: 3600 must be less than timeoutSeconds: 10/,
    ],
    ['an unknown retryLogic', { retryLogic: 'SOMETIMES' }, '[0].retryLogic', /must be one of FIXED/],
    ['a missing name', { name: undefined }, '[0].name', /TaskDef name cannot be null or empty/],
  ])('rejects %s', async (_case, overrides, path, message) => {
    await expectInvalidTaskDefs(await send('POST', '/taskdefs', [taskDef(overrides)]), path, message);
  });

  it('rejects the whole array when one definition is invalid, storing nothing', async () => {
    const good = taskDef();
    await expectInvalidTaskDefs(
      await send('POST', '/taskdefs', [good, taskDef({ retryCount: -1 })]),
      '[1].retryCount',
      /greater than or equal to 0/,
    );
    await errorBody(await get(`/taskdefs/${good.name}`), 404);
  });

  it('replaces an existing definition instead of answering 409', async () => {
    const def = taskDef({ retryCount: 1 });
    await expectEmptyOk(await send('POST', '/taskdefs', [def]));
    await expectEmptyOk(await send('POST', '/taskdefs', [{ ...def, retryCount: 2 }]));
    expect((await okJson<TaskDefShape>(await get(`/taskdefs/${def.name}`))).retryCount).toBe(2);
  });
});

describe('PUT /api/metadata/taskdefs', () => {
  it('updates a definition, keeping createTime and setting updateTime', async () => {
    const def = taskDef({ description: 'before' });
    await expectEmptyOk(await send('POST', '/taskdefs', [def]));
    const created = clock.now();
    clock.advance(2000);
    await expectEmptyOk(await send('PUT', '/taskdefs', { ...def, description: 'after', createTime: 1 }));
    const stored = await okJson<TaskDefShape>(await get(`/taskdefs/${def.name}`));
    expect(stored).toMatchObject({ description: 'after', createTime: created, updateTime: created + 2000 });
  });

  it('answers 404 for a name that is not registered', async () => {
    const body = await errorBody(
      await send('PUT', '/taskdefs', taskDef({ name: 'never_registered_task' })),
      404,
    );
    expect(body.message).toBe('No such taskType found by name: never_registered_task');
    expect(body.retryable).toBe(false);
  });

  it('answers 400 with the path of a wrong field', async () => {
    const body = await errorBody(await send('PUT', '/taskdefs', taskDef({ responseTimeoutSeconds: 0 })), 400);
    expect(body.message).toMatch(/^The task definition is not valid/);
    expect(pathsOf(body)).toEqual(['responseTimeoutSeconds']);
  });

  it('answers 400 naming malformed JSON', async () => {
    const body = await errorBody(await send('PUT', '/taskdefs', '{name: unquoted}'), 400);
    expect(body.message).toMatch(/malformed JSON/i);
  });
});

describe('GET and DELETE /api/metadata/taskdefs', () => {
  it('lists every registered definition', async () => {
    const a = taskDef();
    const b = taskDef();
    await expectEmptyOk(await send('POST', '/taskdefs', [a, b]));
    const names = (await okJson<TaskDefShape[]>(await get('/taskdefs?access=READ&metadata=true'))).map(
      (d) => d.name,
    );
    expect(names).toEqual(expect.arrayContaining([a.name, b.name]));
  });

  it('answers 404 for an unknown name', async () => {
    const body = await errorBody(await get('/taskdefs/no_such_task_def'), 404);
    expect(body.message).toBe('No such taskType found by name: no_such_task_def');
  });

  it('deletes a definition, after which it is gone', async () => {
    const def = taskDef();
    await expectEmptyOk(await send('POST', '/taskdefs', [def]));
    await expectEmptyOk(await send('DELETE', `/taskdefs/${def.name}`));
    await errorBody(await get(`/taskdefs/${def.name}`), 404);
  });

  it('answers 404 when deleting an unknown name', async () => {
    const body = await errorBody(await send('DELETE', '/taskdefs/no_such_task_def'), 404);
    expect(body.message).toBe('No such taskType found by name: no_such_task_def');
  });
});

describe('HTTP conventions on /api/metadata', () => {
  it('answers an unknown route with 404 and the error body', async () => {
    const body = await errorBody(await get('/no-such-thing'), 404);
    expect(body.message).toBe('No route for GET /api/metadata/no-such-thing');
    expect(body.retryable).toBe(false);
  });

  it('answers 404 for the Orkes-only tag routes', async () => {
    await errorBody(await get('/tags'), 404);
  });

  it.each([
    ['PATCH', '/workflow'],
    ['DELETE', '/taskdefs'],
    ['POST', '/workflow/names'],
    ['GET', '/workflow/some_name/1'],
  ])('answers %s %s with 405 and the error body', async (method, path) => {
    const body = await errorBody(await send(method, path), 405);
    expect(body.message).toBe(`Method ${method} is not supported on /api/metadata${path}`);
  });

  it('tolerates a trailing slash', async () => {
    await okJson<unknown[]>(await get('/taskdefs/'));
  });

  it('answers 400 to malformed percent-encoding in a path', async () => {
    const body = await errorBody(await get('/workflow/bad%E0%A4'), 400);
    expect(body.message).toMatch(/Malformed percent-encoding/);
  });
});
