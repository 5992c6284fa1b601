/**
 * Synchronous execution, POST /api/workflow/execute/{name}/{version} (docs/api.md "Workflow start API",
 * docs/conductor-compat.md §1.6, §2.13): a run of system tasks completes inside the request; a WAIT
 * (also in a sub-workflow) or a listed task ends the wait; each returnStrategy answers its shape;
 * the same requestId never starts a second run; bad input is a 400.
 */
import { describe, expect, it } from 'vitest';
import { type Json, script, uniqueName, worker } from '../helpers/fixtures.ts';
import { errorBody, pathsOf, useTestServer } from '../helpers/server.ts';
import { systemOnlyWorkflow } from '../helpers/system-only.ts';
import { ExecutionApi, expectJson } from './execution-api.ts';

const api = new ExecutionApi(useTestServer());

const waitTask = (name = 'hold', extra: Json = {}): Json => ({
  name,
  taskReferenceName: name,
  type: 'WAIT',
  ...extra,
});

async function registered(def: Json): Promise<string> {
  await api.registerWorkflow(def);
  return def.name as string;
}

const execute = (name: string, query = '', body: unknown = {}, version = 0) =>
  api.send('POST', `/api/workflow/execute/${encodeURIComponent(name)}/${version}${query}`, body);

type Answer = Record<string, unknown> & { tasks: { referenceTaskName: string; status: string }[] };

describe('POST /api/workflow/execute: a run of system tasks', () => {
  it('completes inside the request and answers the WorkflowRun', async () => {
    const name = await registered(systemOnlyWorkflow(uniqueName('sys')));
    const answer = await expectJson<Answer>(await execute(name, '', { input: { n: 1 } }));
    expect(answer).toMatchObject({
      responseType: 'TARGET_WORKFLOW',
      status: 'COMPLETED',
      targetWorkflowStatus: 'COMPLETED',
      output: { n: 6 },
      input: { n: 1 },
      signalTimeout: false,
    });
    expect(answer.workflowId).toBe(answer.targetWorkflowId);
    expect(answer.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.tasks).toHaveLength(10);
    expect(answer.tasks.every((t) => t.status === 'COMPLETED')).toBe(true);
  });

  it('runs an inline definition (a dynamic workflow) the same way', async () => {
    const name = uniqueName('dyn');
    const answer = await expectJson<Answer>(
      await execute(name, '', { workflowDef: systemOnlyWorkflow(name), input: { n: 10 } }),
    );
    expect(answer).toMatchObject({ status: 'COMPLETED', output: { n: 15 } });
    // The input is the caller's: no _systemMetadata marker is added.
    expect(answer.input).toEqual({ n: 10 });
  });

  it('runs the version in the path, and the latest for version 0', async () => {
    const name = uniqueName('versions');
    await api.registerWorkflow({ ...systemOnlyWorkflow(name), version: 1 });
    await api.registerWorkflow({ ...systemOnlyWorkflow(name), version: 2, outputParameters: { v: 2 } });
    const latest = await expectJson<Answer>(await execute(name, '', { input: { n: 0 } }, 0));
    const first = await expectJson<Answer>(await execute(name, '', { input: { n: 0 } }, 1));
    expect(latest.output).toEqual({ v: 2 });
    expect(first.output).toEqual({ n: 5 });
  });

  it('answers the WorkflowRun for BLOCKING_TASK when nothing blocks (the run is over)', async () => {
    const name = await registered(systemOnlyWorkflow(uniqueName('sys')));
    const answer = await expectJson<Answer>(
      await execute(name, '?returnStrategy=BLOCKING_TASK', { input: { n: 1 } }),
    );
    expect(answer).toMatchObject({ responseType: 'TARGET_WORKFLOW', status: 'COMPLETED' });
    expect(answer.tasks).toHaveLength(10);
  });
});

describe('POST /api/workflow/execute: blocking tasks and return strategies', () => {
  async function blockedFlow(): Promise<string> {
    return registered({
      name: uniqueName('blocked'),
      version: 1,
      tasks: [script('before', '"ready"'), waitTask('hold', { inputParameters: { ask: 'approve?' } })],
    });
  }

  it('answers once a WAIT task blocks the run, which stays RUNNING', async () => {
    const answer = await expectJson<Answer>(await execute(await blockedFlow(), '?waitForSeconds=5'));
    expect(answer).toMatchObject({
      responseType: 'TARGET_WORKFLOW',
      status: 'RUNNING',
      signalTimeout: false,
    });
    expect(answer.tasks.map((t) => [t.referenceTaskName, t.status])).toEqual([
      ['before', 'COMPLETED'],
      ['hold', 'IN_PROGRESS'],
    ]);
  });

  it('answers the blocking task as a TaskRun for BLOCKING_TASK', async () => {
    const answer = await expectJson<Answer>(
      await execute(await blockedFlow(), '?returnStrategy=BLOCKING_TASK'),
    );
    expect(answer).toMatchObject({
      responseType: 'BLOCKING_TASK',
      taskType: 'WAIT',
      referenceTaskName: 'hold',
      status: 'IN_PROGRESS',
      input: { ask: 'approve?' },
      targetWorkflowStatus: 'RUNNING',
    });
    expect(answer.workflowId).toBe(answer.targetWorkflowId);
    expect(answer.taskId).toEqual(expect.any(String));
  });

  it('answers the blocking task input for BLOCKING_TASK_INPUT', async () => {
    const answer = await expectJson<Answer>(
      await execute(await blockedFlow(), '?returnStrategy=BLOCKING_TASK_INPUT'),
    );
    expect(answer).toMatchObject({ responseType: 'BLOCKING_TASK_INPUT', input: { ask: 'approve?' } });
  });

  it('finds a WAIT inside a sub-workflow and answers that sub-workflow for BLOCKING_WORKFLOW', async () => {
    const child = await blockedFlow();
    const parent = await registered({
      name: uniqueName('parent'),
      version: 1,
      tasks: [
        {
          name: 'child',
          taskReferenceName: 'child',
          type: 'SUB_WORKFLOW',
          subWorkflowParam: { name: child, version: 1 },
        },
      ],
    });
    const answer = await expectJson<Answer>(await execute(parent, '?returnStrategy=BLOCKING_WORKFLOW'));
    expect(answer).toMatchObject({
      responseType: 'BLOCKING_WORKFLOW',
      status: 'RUNNING',
      targetWorkflowStatus: 'RUNNING',
    });
    expect(answer.workflowId).not.toBe(answer.targetWorkflowId);
    expect(answer.tasks.map((t) => t.referenceTaskName)).toEqual(['before', 'hold']);
    const target = await api.workflow(answer.targetWorkflowId as string);
    expect(target.tasks[0]?.subWorkflowId).toBe(answer.workflowId);
  });

  it('waits for a listed worker task and answers once a worker completed it', async () => {
    const first = uniqueName('first');
    const name = await registered({
      name: uniqueName('listed'),
      version: 1,
      tasks: [worker(first), worker(uniqueName('second'))],
    });
    const pending = execute(
      name,
      `?waitUntilTaskRef=${first}&returnStrategy=BLOCKING_TASK&waitForSeconds=20`,
    );
    const task = await api.pollEventually(first);
    await api.update(task, 'COMPLETED', { done: true });
    const answer = await expectJson<Answer>(await pending);
    expect(answer).toMatchObject({
      responseType: 'BLOCKING_TASK',
      referenceTaskName: first,
      status: 'COMPLETED',
      output: { done: true },
      targetWorkflowStatus: 'RUNNING',
      signalTimeout: false,
    });
  });
});

describe('POST /api/workflow/execute: requestId', () => {
  it('answers the same run to 20 concurrent calls with one requestId, and starts one run', async () => {
    const name = await registered({ name: uniqueName('once'), version: 1, tasks: [waitTask()] });
    const correlationId = uniqueName('corr');
    const requestId = uniqueName('req');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        execute(name, `?requestId=${requestId}`, { correlationId, input: { call: i } }).then((r) =>
          expectJson<Answer>(r),
        ),
      ),
    );
    expect(new Set(answers.map((a) => a.workflowId)).size).toBe(1);
    expect(answers.every((a) => a.requestId === requestId && a.status === 'RUNNING')).toBe(true);
    const runs = await expectJson<unknown[]>(
      await api.get(`/api/workflow/${name}/correlated/${correlationId}`),
    );
    expect(runs).toHaveLength(1);
  });

  it('keeps requestIds of different workflows apart', async () => {
    const a = await registered(systemOnlyWorkflow(uniqueName('a')));
    const b = await registered(systemOnlyWorkflow(uniqueName('b')));
    const one = await expectJson<Answer>(await execute(a, '?requestId=shared', { input: { n: 0 } }));
    const two = await expectJson<Answer>(await execute(b, '?requestId=shared', { input: { n: 0 } }));
    expect(one.workflowId).not.toBe(two.workflowId);
  });
});

describe('POST /api/workflow/execute: bad input', () => {
  it.each([
    ['a version that is not a number', 'x', '', 'version'],
    ['waitForSeconds that is not a number', '0', '?waitForSeconds=soon', 'waitForSeconds'],
    ['a negative waitForSeconds', '0', '?waitForSeconds=-1', 'waitForSeconds'],
    ['an unknown returnStrategy', '0', '?returnStrategy=EVERYTHING', 'returnStrategy'],
  ])('rejects %s with 400', async (_what, version, query, field) => {
    const response = await api.send('POST', `/api/workflow/execute/some_flow/${version}${query}`, {});
    const body = await errorBody(response, 400);
    expect(body.message.toLowerCase()).toContain(field.toLowerCase());
  });

  it('rejects malformed JSON and a body that is not an object with 400', async () => {
    expect((await errorBody(await execute('some_flow', '', '{"input":'), 400)).message).toMatch(
      /Malformed JSON/,
    );
    await errorBody(await execute('some_flow', '', [1]), 400);
  });

  it('rejects wrong field types in the StartWorkflowRequest with 400 naming them', async () => {
    const body = await errorBody(await execute('some_flow', '', { input: [1], priority: 'high' }), 400);
    expect(pathsOf(body)).toEqual(expect.arrayContaining(['input', 'priority']));
  });

  it('rejects an invalid inline definition with 400 listing its problems', async () => {
    const body = await errorBody(
      await execute('bad_inline', '', { workflowDef: { name: 'bad_inline', tasks: [{ type: 'SIMPLE' }] } }),
      400,
    );
    expect(pathsOf(body).length).toBeGreaterThan(0);
  });

  it('answers 404 for an unknown workflow', async () => {
    const body = await errorBody(await execute('never_registered_flow'), 404);
    expect(body.message).toMatch(/No such workflow defined/);
  });
});
