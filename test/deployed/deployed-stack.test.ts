/**
 * The stack as `cdk deploy` would create it, run here from its synthesized template
 * (test/deployed/harness): every function's bundle in fresh Node 22 processes, API Gateway, SQS
 * with the event source mappings, the schedule rules, DynamoDB, S3 and Secrets Manager stand-ins,
 * and every AWS call checked against the calling function's IAM policy. Authentication is on, with
 * the key the stack generates; the official SDK talks to the API's front door.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  MetadataClient,
  SchedulerClient,
  SchemaClient,
  WorkflowExecutor,
} from '@io-orkes/conductor-javascript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ref } from '../helpers/fixtures.ts';
import { eventually } from '../http/execution-api.ts';
import { collectingLogger, type SdkClient, sdkClient, startWorkers, worker } from '../sdk/sdk-client.ts';
import { type Assembly, type DeployedStack, startDeployedStack } from './harness/index.ts';
import { deployedAssembly } from './harness/shared.ts';

let assembly: Assembly;
let stack: DeployedStack;
let client: SdkClient;
let echo: Server;
let echoUrl = '';
const log = collectingLogger();

beforeAll(async () => {
  assembly = deployedAssembly();
  stack = await startDeployedStack({ assembly, echoLogs: process.env.HARNESS_ECHO === '1' });
  client = await sdkClient(stack.apiUrl, {
    keyId: stack.key.id,
    keySecret: stack.key.secret,
    logger: log.logger,
  });
  echo = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ hello: 'world', path: req.url }));
  });
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  await new Promise<void>((resolve) => (echo ? echo.close(() => resolve()) : resolve()));
});

async function runEventually(id: string, status: string, ms = 30_000) {
  const executor = new WorkflowExecutor(client);
  return eventually(async () => {
    const run = await executor.getWorkflow(id, true);
    if (run.status !== status) throw new Error(`run ${id} is ${run.status}, not ${status}`);
    return run;
  }, ms);
}

describe('the deployed stack', () => {
  it('runs SDK workers through a 5-task workflow with a FORK_JOIN and a SUB_WORKFLOW', async () => {
    const metadata = new MetadataClient(client);
    for (const name of ['dep_a', 'dep_b', 'dep_c', 'dep_d', 'dep_e']) {
      await metadata.registerTask({
        name,
        retryCount: 0,
        timeoutSeconds: 60,
        responseTimeoutSeconds: 30,
      } as never);
    }
    await metadata.registerWorkflowDef(
      {
        name: 'dep_child',
        version: 1,
        tasks: [{ name: 'dep_d', taskReferenceName: 'd', type: 'SIMPLE' }],
      } as never,
      true,
    );
    await metadata.registerWorkflowDef(
      {
        name: 'dep_parent',
        version: 1,
        tasks: [
          { name: 'dep_a', taskReferenceName: 'a', type: 'SIMPLE' },
          {
            name: 'fork',
            taskReferenceName: 'fork',
            type: 'FORK_JOIN',
            forkTasks: [
              [{ name: 'dep_b', taskReferenceName: 'b', type: 'SIMPLE' }],
              [{ name: 'dep_c', taskReferenceName: 'c', type: 'SIMPLE' }],
            ],
          },
          { name: 'join', taskReferenceName: 'join', type: 'JOIN', joinOn: ['b', 'c'] },
          {
            name: 'child',
            taskReferenceName: 'child',
            type: 'SUB_WORKFLOW',
            subWorkflowParam: { name: 'dep_child', version: 1 },
          },
          { name: 'dep_e', taskReferenceName: 'e', type: 'SIMPLE' },
        ],
        outputParameters: { b: ref('b.output.by'), d: ref('child.output.by'), e: ref('e.output.by') },
      } as never,
      true,
    );
    const handler = await startWorkers(
      client,
      ['dep_a', 'dep_b', 'dep_c', 'dep_d', 'dep_e'].map((name) =>
        worker(name, async () => ({ status: 'COMPLETED', outputData: { by: name } })),
      ),
      log.logger,
    );
    try {
      const id = await new WorkflowExecutor(client).startWorkflow({
        name: 'dep_parent',
        version: 1,
        input: {},
      });
      const run = await runEventually(id, 'COMPLETED', 60_000);
      expect(run.output).toEqual({ b: 'dep_b', d: 'dep_d', e: 'dep_e' });
      expect(run.tasks?.map((t) => `${t.referenceTaskName}:${t.status}`)).toEqual([
        'a:COMPLETED',
        'fork:COMPLETED',
        'b:COMPLETED',
        'c:COMPLETED',
        'join:COMPLETED',
        'child:COMPLETED',
        'e:COMPLETED',
      ]);
    } finally {
      await handler.stopWorkers();
    }
  }, 90_000);

  it('answers a synchronous execute with the finished run', async () => {
    await new MetadataClient(client).registerWorkflowDef(
      {
        name: 'dep_sync',
        version: 1,
        tasks: [
          {
            name: 'jq',
            taskReferenceName: 'jq',
            type: 'JSON_JQ_TRANSFORM',
            inputParameters: { n: ref('workflow.input.n'), queryExpression: '{doubled: (.n * 2)}' },
          },
        ],
        outputParameters: { doubled: ref('jq.output.result.doubled') },
      } as never,
      true,
    );
    const run = await new WorkflowExecutor(client).executeWorkflow(
      { name: 'dep_sync', version: 1, input: { n: 21 } },
      'dep_sync',
      1,
      'dep-sync-1',
    );
    expect(run, JSON.stringify(run).slice(0, 1500)).toMatchObject({
      status: 'COMPLETED',
      output: { doubled: 42 },
    });
  }, 60_000);

  it('runs HTTP and JSON_JQ_TRANSFORM tasks', async () => {
    const registered = await stack.request('POST', '/api/metadata/workflow', {
      name: 'dep_http',
      version: 1,
      schemaVersion: 2,
      tasks: [
        {
          name: 'call',
          taskReferenceName: 'call',
          type: 'HTTP',
          inputParameters: { http_request: { uri: `${echoUrl}/api/hello`, method: 'GET' } },
        },
        {
          name: 'shape',
          taskReferenceName: 'shape',
          type: 'JSON_JQ_TRANSFORM',
          inputParameters: {
            body: ref('call.output.response.body'),
            queryExpression: '{greeting: .body.hello}',
          },
        },
      ],
      outputParameters: { greeting: ref('shape.output.result.greeting') },
    });
    expect(registered.status).toBe(200);
    const started = await stack.request<string>('POST', '/api/workflow/dep_http', {});
    const run = await runEventually(started.body, 'COMPLETED');
    expect(run.output).toEqual({ greeting: 'world' });
  }, 60_000);

  it('fires a schedule that starts a workflow whose input schema is enforced', async () => {
    await new SchemaClient(client).registerSchema([
      {
        name: 'dep_order',
        version: 1,
        type: 'JSON',
        data: { $schema: 'https://json-schema.org/draft/2020-12/schema', required: ['order'] },
      } as never,
    ]);
    await new MetadataClient(client).registerWorkflowDef(
      {
        name: 'dep_scheduled',
        version: 1,
        inputSchema: { name: 'dep_order', type: 'JSON' },
        enforceSchema: true,
        tasks: [
          { name: 'note', taskReferenceName: 'note', type: 'SET_VARIABLE', inputParameters: { seen: true } },
        ],
      } as never,
      true,
    );
    const scheduler = new SchedulerClient(client);
    await scheduler.saveSchedule({
      name: 'dep_every_20s',
      cronExpression: '*/20 * * * * ?',
      startWorkflowRequest: { name: 'dep_scheduled', version: 1, input: { order: 7 } },
    } as never);
    try {
      // The save sends the fires due before the next tick, each delayed to its second.
      await stack.advance(20_000);
      const executions = await eventually(async () => {
        const found = await stack.request<{
          results: { state: string; reason?: string; workflowId?: string }[];
        }>('GET', '/api/scheduler/search/executions?query=scheduleName%3D%27dep_every_20s%27');
        const results = found.body.results ?? [];
        if (results.length === 0 || results.every((r) => r.state === 'POLLED'))
          throw new Error('no execution yet');
        return results;
      }, 30_000);
      const executed = executions.find((r) => r.state === 'EXECUTED');
      expect(executed, JSON.stringify(executions)).toBeDefined();
      await runEventually(executed?.workflowId as string, 'COMPLETED');
    } finally {
      await scheduler.deleteSchedule('dep_every_20s');
    }
  }, 60_000);

  it('stores a file through presigned S3 URLs and hands it back the same way', async () => {
    const started = await stack.request<string>('POST', '/api/workflow/dep_http', {});
    const created = await stack.request<{ fileHandleId: string; uploadUrl: string }>('POST', '/api/files', {
      workflowId: started.body,
      fileName: 'hello.txt',
      contentType: 'text/plain',
    });
    expect(created.status).toBe(201);
    expect(new URL(created.body.uploadUrl).searchParams.get('X-Amz-Signature')).toBeTruthy();
    const upload = await fetch(created.body.uploadUrl, {
      method: 'PUT',
      headers: { 'content-type': 'text/plain' },
      body: 'hello from the harness',
    });
    expect(upload.status).toBe(200);
    const fileId = created.body.fileHandleId.split('/').pop();
    const completed = await stack.request<{ uploadStatus: string }>(
      'POST',
      `/api/files/${started.body}/${fileId}/upload-complete`,
    );
    expect(completed.body.uploadStatus).toBe('UPLOADED');
    const download = await stack.request<{ downloadUrl: string }>(
      'GET',
      `/api/files/${started.body}/${fileId}/download-url`,
    );
    const bytes = await fetch(download.body.downloadUrl);
    expect(await bytes.text()).toBe('hello from the harness');
  }, 60_000);

  it('starts a workflow through an event handler, from an EVENT task and from an event posted to the API', async () => {
    const metadata = new MetadataClient(client);
    await metadata.registerWorkflowDef(
      {
        name: 'dep_started_by_event',
        version: 1,
        tasks: [
          { name: 'noop', taskReferenceName: 'noop', type: 'SET_VARIABLE', inputParameters: { ok: true } },
        ],
      } as never,
      true,
    );
    await metadata.registerWorkflowDef(
      {
        name: 'dep_emitter',
        version: 1,
        tasks: [
          {
            name: 'emit',
            taskReferenceName: 'emit',
            type: 'EVENT',
            sink: 'conductor',
            inputParameters: { orderId: ref('workflow.input.orderId') },
          },
        ],
      } as never,
      true,
    );
    const handler = await stack.request('POST', '/api/event', {
      name: 'dep_on_emit',
      event: 'conductor:dep_emitter:emit',
      active: true,
      actions: [
        {
          action: 'start_workflow',
          start_workflow: { name: 'dep_started_by_event', version: 1, input: { orderId: ref('orderId') } },
        },
      ],
    });
    expect(handler.status).toBe(200);
    const started = await stack.request<string>('POST', '/api/workflow/dep_emitter', { orderId: 'o-42' });
    await runEventually(started.body, 'COMPLETED');
    const executions = await eventually(async () => {
      const found = await stack.request<{ status: string; output?: { workflowId?: string } }[]>(
        'GET',
        '/api/event/execution/dep_on_emit',
      );
      const list = Array.isArray(found.body) ? found.body : [];
      if (!list.some((e) => e.status === 'COMPLETED'))
        throw new Error(`executions: ${JSON.stringify(found.body)}`);
      return list;
    }, 30_000);
    const workflowId = executions.find((e) => e.status === 'COMPLETED')?.output?.workflowId as string;
    const run = await runEventually(workflowId, 'COMPLETED');
    expect(run.input).toMatchObject({ orderId: 'o-42' });

    // The same event posted to the API: the events function hands it to the queue, the consumer
    // carries the handler out.
    const posted = await stack.request('POST', '/api/event/handleIncomingEvent', {
      event: 'conductor:dep_emitter:emit',
      orderId: 'o-43',
    });
    expect(posted.status).toBe(200);
    const both = await eventually(async () => {
      const found = await stack.request<{ status: string; output?: { workflowId?: string } }[]>(
        'GET',
        '/api/event/execution/dep_on_emit',
      );
      const list = (Array.isArray(found.body) ? found.body : []).filter((e) => e.status === 'COMPLETED');
      if (list.length < 2) throw new Error(`executions: ${JSON.stringify(found.body)}`);
      return list;
    }, 30_000);
    const second = both.map((e) => e.output?.workflowId).find((id) => id !== workflowId) as string;
    expect((await runEventually(second, 'COMPLETED')).input).toMatchObject({ orderId: 'o-43' });
  }, 90_000);

  it('pushes a message into a running workflow and pulls it', async () => {
    await new MetadataClient(client).registerWorkflowDef(
      {
        name: 'dep_listener',
        version: 1,
        tasks: [
          {
            name: 'pull',
            taskReferenceName: 'pull',
            type: 'PULL_WORKFLOW_MESSAGES',
            inputParameters: { batchSize: 5 },
          },
        ],
        outputParameters: { messages: ref('pull.output.messages') },
      } as never,
      true,
    );
    const started = await stack.request<string>('POST', '/api/workflow/dep_listener', {});
    await runEventually(started.body, 'RUNNING');
    const pushed = await stack.request<string>('POST', `/api/workflow/${started.body}/messages`, {
      order: 42,
    });
    expect(pushed.status).toBe(200);
    const run = await runEventually(started.body, 'COMPLETED');
    expect((run.output as { messages: { payload: unknown }[] }).messages.map((m) => m.payload)).toEqual([
      { order: 42 },
    ]);
  }, 60_000);

  it('recovers a run whose decide message was lost: the sweeper rule finds it due', async () => {
    await new MetadataClient(client).registerTask({
      name: 'dep_after_loss',
      retryCount: 0,
      timeoutSeconds: 60,
      responseTimeoutSeconds: 30,
    } as never);
    await stack.request('POST', '/api/metadata/workflow', {
      name: 'dep_lossy',
      version: 1,
      schemaVersion: 2,
      tasks: [{ name: 'dep_after_loss', taskReferenceName: 'only', type: 'SIMPLE' }],
    });
    // What earlier tests left in flight is done first, so the send lost is this start's.
    await stack.settled();
    stack.queue('QueuesDecisions2').loseNext();
    const started = await stack.request<string>('POST', '/api/workflow/dep_lossy', {});
    await stack.settled();
    expect((await runEventually(started.body, 'RUNNING')).tasks).toEqual([]);
    await stack.advance(60_000);
    const run = await eventually(async () => {
      const current = await new WorkflowExecutor(client).getWorkflow(started.body, true);
      if ((current.tasks ?? []).length === 0) throw new Error('not decided yet');
      return current;
    }, 30_000);
    expect(run.tasks?.map((t) => `${t.referenceTaskName}:${t.status}`)).toEqual(['only:SCHEDULED']);
  }, 60_000);

  it('serves the API document and the Swagger UI files its bundle carries', async () => {
    const document = await fetch(`${stack.apiUrl}/api-docs`);
    expect(document.status).toBe(200);
    expect(((await document.json()) as { openapi?: string }).openapi).toMatch(/^3\./);
    const page = await fetch(`${stack.apiUrl}/swagger-ui/index.html`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('swagger');
  }, 30_000);

  it('wakes a WAIT task through the timer queue and loops with scripts in the decider', async () => {
    await stack.request('POST', '/api/metadata/workflow', {
      name: 'dep_wait_loop',
      version: 1,
      schemaVersion: 2,
      tasks: [
        {
          name: 'pause',
          taskReferenceName: 'pause',
          type: 'WAIT',
          inputParameters: { duration: '30 seconds' },
        },
        {
          name: 'loop',
          taskReferenceName: 'loop',
          type: 'DO_WHILE',
          loopCondition: 'if ($.loop.iteration < 3) { true; } else { false; }',
          loopOver: [
            {
              name: 'step',
              taskReferenceName: 'step',
              type: 'INLINE',
              inputParameters: { evaluatorType: 'graaljs', expression: '(function () { return 1; })()' },
            },
          ],
        },
      ],
    });
    const started = await stack.request<string>('POST', '/api/workflow/dep_wait_loop', {});
    await stack.settled();
    expect((await runEventually(started.body, 'RUNNING')).tasks?.[0]?.status).toBe('IN_PROGRESS');
    await stack.advance(31_000);
    const run = await runEventually(started.body, 'COMPLETED', 40_000);
    expect(run.tasks?.filter((t) => t.referenceTaskName?.startsWith('step')).length).toBe(3);
  }, 60_000);

  it("signs in an application's access key with its roles, checked by every function against the applications table", async () => {
    const app = await stack.request<{ id: string }>('POST', '/api/applications', { name: 'dep-worker' });
    expect(app.status).toBe(200);
    expect((await stack.request('POST', `/api/applications/${app.body.id}/roles/WORKER`)).status).toBe(200);
    const key = await stack.request<{ id: string; secret: string }>(
      'POST',
      `/api/applications/${app.body.id}/accessKeys`,
    );
    const issued = await fetch(`${stack.apiUrl}/api/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ keyId: key.body.id, keySecret: key.body.secret }),
    });
    expect(issued.status).toBe(200);
    const { token } = (await issued.json()) as { token: string };
    const call = (method: string, path: string) =>
      fetch(`${stack.apiUrl}${path}`, { method, headers: { 'x-authorization': token } });
    // Three functions read the key's state: metadata and tasks let a WORKER in, workflows refuses it.
    expect((await call('GET', '/api/metadata/taskdefs')).status).toBe(200);
    expect([200, 204]).toContain((await call('GET', '/api/tasks/poll/dep_nobody')).status);
    const refused = await call('GET', '/api/workflow/running/dep_wait_loop');
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('needs the role WORKFLOW_MANAGER, USER or ADMIN');
    // Disabled, the key stops at once, in every function.
    expect(
      (await stack.request('POST', `/api/applications/${app.body.id}/accessKeys/${key.body.id}/status`))
        .status,
    ).toBe(200);
    expect((await call('GET', '/api/metadata/taskdefs')).status).toBe(401);
    expect((await call('GET', '/api/tasks/poll/dep_nobody')).status).toBe(401);
    const logs = stack.logs().join('\n');
    expect(logs).not.toContain(key.body.secret);
  }, 60_000);

  it('logs neither the application key secret nor a presigned URL, and nothing was refused by IAM', () => {
    const logs = stack.logs().join('\n');
    expect(logs.length).toBeGreaterThan(0);
    expect(logs).not.toContain(stack.key.secret);
    expect(logs).not.toMatch(/X-Amz-Signature|X-Amz-Credential/i);
    expect(stack.iam.denials).toEqual([]);
    expect(stack.failures).toEqual([]);
  });
});
