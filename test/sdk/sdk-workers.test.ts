/**
 * The official JavaScript SDK, unmodified, against a real local server:
 * definitions registered with MetadataClient, runs started with WorkflowExecutor, and real workers
 * on the SDK's worker runtime (TaskHandler; the legacy TaskManager for the auth case) that poll with
 * batch polls and report through update-v2. Also the auth probe: with dummy credentials the SDK asks
 * POST /api/token first, gets a 404, and carries on without a token.
 */
import {
  type ConductorWorker,
  MetadataClient,
  simpleTask,
  type TaskHandler,
  TaskManager,
  taskDefinition,
  type Workflow,
  WorkflowExecutor,
  workflow,
} from '@io-orkes/conductor-javascript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ref, uniqueName } from '../helpers/fixtures.ts';
import { useTestServer } from '../helpers/server.ts';
import { eventually } from '../http/execution-api.ts';
import {
  collectingLogger,
  type RecordedCall,
  recordingFetch,
  type SdkClient,
  sdkClient,
  startWorkers,
  type Task,
  worker,
} from './sdk-client.ts';

const names = {
  greet: uniqueName('sdk_greet'),
  shout: uniqueName('sdk_shout'),
  flaky: uniqueName('sdk_flaky'),
  chain: uniqueName('sdk_chain'),
  retrying: uniqueName('sdk_retrying'),
};

// Node only: the SDK talks to a real URL with its own fetch.
const server = useTestServer({}, { transport: 'node' });
let client: SdkClient;
let calls: RecordedCall[];
let handler: TaskHandler | undefined;
const sdkLog = collectingLogger();
/** The attempts the flaky worker saw, by retry count. */
const flakyAttempts: number[] = [];

const workers: ConductorWorker[] = [
  worker(names.greet, async (task: Task) => ({
    status: 'COMPLETED',
    outputData: { greeting: `Hello, ${String(task.inputData?.name)}` },
  })),
  worker(names.shout, async (task: Task) => ({
    status: 'COMPLETED',
    outputData: { shouted: String(task.inputData?.text).toUpperCase() },
  })),
  worker(names.flaky, async (task: Task) => {
    flakyAttempts.push(task.retryCount ?? -1);
    if ((task.retryCount ?? 0) === 0) throw new Error('first attempt always fails');
    return { status: 'COMPLETED', outputData: { attempt: task.retryCount } };
  }),
];

beforeAll(async () => {
  const recorder = recordingFetch();
  calls = recorder.calls;
  client = await sdkClient(server.url, { fetch: recorder.fetch, logger: sdkLog.logger });

  const metadata = new MetadataClient(client);
  // The builder's defaults (responseTimeoutSeconds 600, timeoutSeconds 3600) hold together; the
  // server rejects a response timeout above the task timeout, so both are set here.
  const limits = { timeoutSeconds: 60, responseTimeoutSeconds: 30, totalTimeoutSeconds: 0 };
  await metadata.registerTasks([
    taskDefinition({ name: names.greet, retryCount: 0, ...limits }),
    taskDefinition({ name: names.shout, retryCount: 0, ...limits }),
    taskDefinition({ name: names.flaky, retryCount: 1, retryDelaySeconds: 0, ...limits }),
  ]);
  await metadata.registerWorkflowDef(
    {
      ...workflow(names.chain, [
        simpleTask('greet', names.greet, { name: ref('workflow.input.name') }),
        simpleTask('shout', names.shout, { text: ref('greet.output.greeting') }),
      ]),
      outputParameters: { message: ref('shout.output.shouted') },
    },
    true,
  );
  await metadata.registerWorkflowDef(workflow(names.retrying, [simpleTask('flaky', names.flaky, {})]), true);
  handler = await startWorkers(client, workers, sdkLog.logger);
});

afterAll(async () => {
  await handler?.stopWorkers();
});

async function completed(executor: WorkflowExecutor, id: string): Promise<Workflow> {
  return eventually(async () => {
    const run = await executor.getWorkflow(id, true);
    if (run.status !== 'COMPLETED') throw new Error(`run ${id} is ${run.status}`);
    return run;
  }, 15_000);
}

describe('the SDK against a local server', () => {
  it('reads back what MetadataClient registered', async () => {
    const metadata = new MetadataClient(client);
    expect(await metadata.getTask(names.flaky)).toMatchObject({ retryCount: 1, retryDelaySeconds: 0 });
    const def = await metadata.getWorkflowDef(names.chain);
    expect(def.tasks.map((t) => t.taskReferenceName)).toEqual(['greet', 'shout']);
  });

  it('runs a chained workflow with TaskHandler workers to COMPLETED, one output feeding the next input', async () => {
    const executor = new WorkflowExecutor(client);
    const id = await executor.startWorkflow({ name: names.chain, version: 1, input: { name: 'Ada' } });
    expect(typeof id).toBe('string');

    const run = await completed(executor, id);
    expect(run.output).toEqual({ message: 'HELLO, ADA' });
    expect(run.tasks?.map((t) => [t.referenceTaskName, t.status])).toEqual([
      ['greet', 'COMPLETED'],
      ['shout', 'COMPLETED'],
    ]);
    expect(run.tasks?.[1]?.inputData).toEqual({ text: 'Hello, Ada' });
    expect(await executor.getWorkflowStatus(id, true, false)).toMatchObject({
      workflowId: id,
      status: 'COMPLETED',
      output: { message: 'HELLO, ADA' },
    });
  });

  it('reports a worker that throws as FAILED, and the retry completes the run', async () => {
    const executor = new WorkflowExecutor(client);
    const id = await executor.startWorkflow({ name: names.retrying, version: 1, input: {} });

    const run = await completed(executor, id);
    expect(run.tasks?.map((t) => [t.retryCount, t.status])).toEqual([
      [0, 'FAILED'],
      [1, 'COMPLETED'],
    ]);
    expect(run.tasks?.[0]?.reasonForIncompletion).toBe('first attempt always fails');
    expect(run.tasks?.[1]?.outputData).toEqual({ attempt: 1 });
    expect(flakyAttempts).toEqual([0, 1]);
  });

  it('polls with batch polls and reports every result through update-v2, never falling back', () => {
    const paths = (method: string, path: string) =>
      calls.filter((c) => c.method === method && c.path === path).map((c) => c.status);
    expect(paths('GET', `/api/tasks/poll/batch/${names.greet}`).every((s) => s === 200)).toBe(true);
    const v2 = paths('POST', '/api/tasks/update-v2');
    expect(v2.length).toBeGreaterThanOrEqual(4);
    expect(v2.every((s) => s === 200 || s === 204)).toBe(true);
    expect(paths('POST', '/api/tasks')).toEqual([]);
    // Without credentials there is no token request and no auth header.
    expect(calls.some((c) => c.path === '/api/token')).toBe(false);
    expect(calls.every((c) => c.authorization === null)).toBe(true);
  });

  it('logged no errors apart from the worker that throws on purpose', () => {
    const unexpected = sdkLog.errors.filter((e) => !e.includes('first attempt always fails'));
    expect(unexpected).toEqual([]);
  });
});

describe('the SDK with dummy credentials', () => {
  it('asks POST /api/token, gets 404, and works on without a token', async () => {
    const recorder = recordingFetch();
    const authed = await sdkClient(server.url, {
      keyId: 'dummy-key',
      keySecret: 'dummy-secret',
      fetch: recorder.fetch,
    });
    expect(recorder.calls[0]).toMatchObject({ method: 'POST', path: '/api/token', status: 404 });

    const taskName = uniqueName('sdk_auth_task');
    const name = uniqueName('sdk_auth_wf');
    await new MetadataClient(authed).registerWorkflowDef(
      {
        ...workflow(name, [simpleTask('only', taskName, {})]),
        outputParameters: { ok: ref('only.output.ok') },
      },
      true,
    );
    const executor = new WorkflowExecutor(authed);
    const id = await executor.startWorkflow({ name, version: 1, input: {} });

    // The legacy worker runtime, TaskManager, on the same client.
    const log = collectingLogger();
    const manager = new TaskManager(
      authed,
      [worker(taskName, async () => ({ status: 'COMPLETED', outputData: { ok: true } }))],
      {
        logger: log.logger,
        options: { pollInterval: 20, workerID: 'legacy-worker' },
      },
    );
    manager.startPolling();
    try {
      const run = await completed(executor, id);
      expect(run.output).toEqual({ ok: true });
      expect(run.tasks?.[0]?.workerId).toBe('legacy-worker');
    } finally {
      await manager.stopPolling();
    }
    expect(recorder.calls.filter((c) => c.path === '/api/token')).toHaveLength(1);
    expect(recorder.calls.every((c) => c.authorization === null)).toBe(true);
    expect(log.errors).toEqual([]);
  });
});

describe('the SDK against a server without update-v2', () => {
  it('falls back to POST /api/tasks, and its workers still complete runs', async () => {
    // Run last in this file: the SDK remembers, per process, that update-v2 answered 404.
    const recorder = recordingFetch([{ method: 'POST', path: '/api/tasks/update-v2' }]);
    const older = await sdkClient(server.url, { fetch: recorder.fetch });
    const taskName = uniqueName('sdk_fallback_task');
    const name = uniqueName('sdk_fallback_wf');
    await new MetadataClient(older).registerWorkflowDef(
      {
        ...workflow(name, [simpleTask('only', taskName, {})]),
        outputParameters: { via: ref('only.output.via') },
      },
      true,
    );
    const executor = new WorkflowExecutor(older);
    const id = await executor.startWorkflow({ name, version: 1, input: {} });
    const log = collectingLogger();
    const fallback = await startWorkers(
      older,
      [worker(taskName, async () => ({ status: 'COMPLETED', outputData: { via: 'legacy route' } }))],
      log.logger,
    );
    try {
      expect((await completed(executor, id)).output).toEqual({ via: 'legacy route' });
    } finally {
      await fallback.stopWorkers();
    }
    const reports = recorder.calls.filter((c) => c.method === 'POST' && c.path.startsWith('/api/tasks'));
    expect(reports).toEqual([
      expect.objectContaining({ path: '/api/tasks/update-v2', status: 404 }),
      expect.objectContaining({ path: '/api/tasks', status: 200 }),
    ]);
    expect(log.errors).toEqual([]);
  });
});
