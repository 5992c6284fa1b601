/**
 * Schema enforcement through the API (docs/api.md "Schema registry", issue 9): workflow input at start
 * (also sync execute and dynamic workflows), task input at schedule, task output at a worker's
 * update, workflow output at completion; missing schemas, pinned and overwritten versions, and
 * schemas that validate nothing (no `$schema`, AVRO).
 */
import { describe, expect, it } from 'vitest';
import { type Json, ref, uniqueName } from '../helpers/fixtures.ts';
import { errorBody, pathsOf, useTestServer } from '../helpers/server.ts';
import { ExecutionApi, expectEmptyOk, expectJson, expectText } from './execution-api.ts';

const server = useTestServer();
const api = new ExecutionApi(server);
const enc = encodeURIComponent;

const DRAFT_2020 = 'https://json-schema.org/draft/2020-12/schema';
const ORDER = {
  $schema: DRAFT_2020,
  type: 'object',
  required: ['orderId', 'email'],
  properties: {
    orderId: { type: 'string' },
    email: { type: 'string', format: 'email' },
    quantity: { type: 'integer', minimum: 1 },
  },
};

async function registerSchema(name: string, data: Json, extra: Json = {}, query = ''): Promise<void> {
  await expectEmptyOk(await api.send('POST', `/api/schema${query}`, { name, type: 'JSON', data, ...extra }));
}

/** A one-worker-task workflow whose definition names `fields` (inputSchema, outputSchema...). */
async function registerWorkflow(fields: Json, taskName = uniqueName('work'), taskDefFields?: Json) {
  const name = uniqueName('enforced');
  if (taskDefFields) await api.registerTaskDefs([{ name: taskName, retryCount: 0, ...taskDefFields }]);
  await api.registerWorkflow({
    name,
    version: 1,
    tasks: [
      {
        name: taskName,
        taskReferenceName: 'work',
        type: 'SIMPLE',
        inputParameters: { order: ref('workflow.input') },
      },
    ],
    outputParameters: { result: ref('work.output.result') },
    ...fields,
  });
  return { name, taskName };
}

const running = async (name: string) =>
  expectJson<string[]>(await api.get(`/api/workflow/running/${enc(name)}`));

describe('workflow input at start', () => {
  it('refuses a violating input with 400 listing each violation by JSON pointer, and creates no run', async () => {
    const schema = uniqueName('order');
    await registerSchema(schema, ORDER);
    const { name } = await registerWorkflow({ inputSchema: { name: schema } });
    const error = await errorBody(
      await api.send('POST', `/api/workflow/${enc(name)}`, { email: 'nope', quantity: 0 }),
      400,
    );
    expect(error.message).toContain(`Workflow input does not match schema ${schema} version 1`);
    expect(pathsOf(error).sort()).toEqual(['/email', '/orderId', '/quantity']);
    expect(await running(name)).toEqual([]);
    const id = await api.start(name, { orderId: 'o-1', email: 'a@example.com', quantity: 2 });
    expect((await api.workflow(id)).status).toBe('RUNNING');
  });

  it('enforces for synchronous execution and for dynamic (inline) workflows', async () => {
    const schema = uniqueName('order');
    await registerSchema(schema, ORDER);
    const { name } = await registerWorkflow({ inputSchema: { name: schema } });
    const execute = await errorBody(
      await api.send('POST', `/api/workflow/execute/${enc(name)}/1`, { name, input: { orderId: 7 } }),
      400,
    );
    expect(pathsOf(execute)).toEqual(expect.arrayContaining(['/orderId', '/email']));
    const inline = {
      name: uniqueName('dynamic'),
      version: 1,
      inputSchema: { name: schema, version: 1 },
      tasks: [{ name: 'dyn_task', taskReferenceName: 'dyn', type: 'SIMPLE' }],
    };
    const dynamic = await errorBody(
      await api.send('POST', '/api/workflow', { workflowDef: inline, input: {} }),
      400,
    );
    expect(pathsOf(dynamic)).toEqual(['/orderId', '/email']);
    expect(
      await expectText(
        await api.send('POST', '/api/workflow', {
          workflowDef: inline,
          input: { orderId: 'x', email: 'x@y.io' },
        }),
      ),
    ).toBeTruthy();
  });

  it('registers a definition naming an unregistered schema, and refuses its start naming the schema', async () => {
    const missing = uniqueName('missing');
    const { name } = await registerWorkflow({ inputSchema: { name: missing } });
    const error = await errorBody(await api.send('POST', `/api/workflow/${enc(name)}`, {}), 400);
    expect(error.message).toContain(`Schema not found: ${missing} version latest`);
    expect(await running(name)).toEqual([]);
  });

  it('does not enforce with enforceSchema=false, nor a JSON schema without $schema, nor AVRO', async () => {
    const strict = uniqueName('order');
    await registerSchema(strict, ORDER);
    const off = await registerWorkflow({ inputSchema: { name: strict }, enforceSchema: false });
    expect(await api.start(off.name, { orderId: 1 })).toBeTruthy();
    const loose = uniqueName('loose');
    await registerSchema(loose, { type: 'object', required: ['x'] });
    const noDraft = await registerWorkflow({ inputSchema: { name: loose } });
    expect(await api.start(noDraft.name, {})).toBeTruthy();
    const avro = uniqueName('avro');
    await registerSchema(avro, { type: 'record', name: 'X', fields: [] }, { type: 'AVRO' });
    const avroFlow = await registerWorkflow({ inputSchema: { name: avro } });
    expect(await api.start(avroFlow.name, { anything: true })).toBeTruthy();
  });

  it('keeps a pinned version, and sees a version overwritten in place', async () => {
    const schema = uniqueName('pinned');
    await registerSchema(schema, { $schema: DRAFT_2020, required: ['a'] });
    await registerSchema(schema, { $schema: DRAFT_2020, required: ['b'] }, {}, '?newVersion=true');
    const pinned = await registerWorkflow({ inputSchema: { name: schema, version: 1 } });
    const latest = await registerWorkflow({ inputSchema: { name: schema } });
    expect(await api.start(pinned.name, { a: 1 })).toBeTruthy();
    expect(
      pathsOf(await errorBody(await api.send('POST', `/api/workflow/${enc(latest.name)}`, { a: 1 }), 400)),
    ).toEqual(['/b']);
    await registerSchema(schema, { $schema: DRAFT_2020, required: ['c'] }, { version: 1 });
    expect(
      pathsOf(await errorBody(await api.send('POST', `/api/workflow/${enc(pinned.name)}`, { a: 1 }), 400)),
    ).toEqual(['/c']);
  });
});

describe('task input and output, workflow output', () => {
  it('fails a task whose input breaks its schema terminally, before any worker sees it', async () => {
    const schema = uniqueName('task_in');
    await registerSchema(schema, {
      $schema: DRAFT_2020,
      type: 'object',
      required: ['order'],
      properties: { order: { required: ['orderId'] } },
    });
    const { name, taskName } = await registerWorkflow({}, uniqueName('work'), {
      inputSchema: { name: schema },
      enforceSchema: true,
    });
    const id = await api.start(name, { somethingElse: 1 });
    const run = await api.workflowEventually(id, 'FAILED');
    const task = run.tasks?.[0];
    expect(task?.status).toBe('FAILED_WITH_TERMINAL_ERROR');
    expect(task?.reasonForIncompletion).toContain(
      `Task ${taskName} input does not match schema ${schema} version 1: /order/orderId is required`,
    );
    expect(await api.poll(taskName)).toBeUndefined();
  });

  it('refuses a worker output that breaks its schema with 400, keeps the task, and takes a valid retry', async () => {
    const schema = uniqueName('task_out');
    await registerSchema(schema, {
      $schema: DRAFT_2020,
      type: 'object',
      required: ['result'],
      properties: { result: { type: 'number' } },
    });
    const { name, taskName } = await registerWorkflow({}, uniqueName('work'), {
      outputSchema: { name: schema },
      enforceSchema: true,
    });
    const id = await api.start(name, {});
    const task = await api.pollEventually(taskName);
    const refused = await errorBody(
      await api.send('POST', '/api/tasks', {
        taskId: task.taskId,
        workflowInstanceId: id,
        status: 'COMPLETED',
        outputData: { result: 'x' },
      }),
      400,
    );
    expect(refused.message).toContain(`Task ${taskName} output does not match schema ${schema} version 1`);
    expect(pathsOf(refused)).toEqual(['/result']);
    const unchanged = await expectJson<{ status: string; outputData: Json }>(
      await api.get(`/api/tasks/${task.taskId}`),
    );
    expect(unchanged).toMatchObject({ status: 'IN_PROGRESS', outputData: {} });
    await api.update(task, 'COMPLETED', { result: 42 });
    expect((await api.workflowEventually(id, 'COMPLETED')).output).toEqual({ result: 42 });
  });

  it('fails the run whose output breaks its outputSchema at completion', async () => {
    const schema = uniqueName('wf_out');
    await registerSchema(schema, {
      $schema: DRAFT_2020,
      properties: { result: { type: 'string', minLength: 3 } },
    });
    const { name, taskName } = await registerWorkflow({ outputSchema: { name: schema } });
    const id = await api.start(name, {});
    await api.update(await api.pollEventually(taskName), 'COMPLETED', { result: 'ab' });
    const run = await api.workflowEventually(id, 'FAILED');
    expect(run.reasonForIncompletion).toContain(
      `Workflow output does not match schema ${schema} version 1: /result must NOT have fewer than 3 characters`,
    );
    const ok = await api.start(name, {});
    await api.update(await api.pollEventually(taskName), 'COMPLETED', { result: 'abc' });
    await api.workflowEventually(ok, 'COMPLETED');
  });

  it('refuses a start whose task definitions enforce an unregistered schema', async () => {
    const missing = uniqueName('gone');
    const { name } = await registerWorkflow({}, uniqueName('work'), {
      outputSchema: { name: missing, version: 3 },
      enforceSchema: true,
    });
    const error = await errorBody(await api.send('POST', `/api/workflow/${enc(name)}`, {}), 400);
    expect(error.message).toContain(`work.outputSchema: Schema not found: ${missing} version 3`);
  });
});
