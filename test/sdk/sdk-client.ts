/**
 * The official JavaScript SDK (`@io-orkes/conductor-javascript`), used unmodified against a local
 * server. The client is built the way an application builds it; the only extra is a fetch that
 * records each request on its way through, which the SDK accepts as its second argument, so tests
 * can say which routes the SDK called and what it was answered.
 */
import {
  type ConductorLogger,
  type ConductorWorker,
  orkesConductorClient,
  type Task,
  TaskHandler,
  type Workflow,
  type WorkflowExecutor,
} from '@io-orkes/conductor-javascript';
import { eventually } from '../http/execution-api.ts';

export interface RecordedCall {
  method: string;
  path: string;
  status: number;
  authorization: string | null;
}

export type SdkClient = Awaited<ReturnType<typeof orkesConductorClient>>;

/**
 * A fetch that passes every request on and notes method, path, answer status and auth header.
 * Routes named in `missing` are answered 404 without reaching the server, as an older server would.
 */
export function recordingFetch(missing: { method: string; path: string }[] = []): {
  fetch: typeof fetch;
  calls: RecordedCall[];
} {
  const calls: RecordedCall[] = [];
  const recording: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const path = new URL(request.url).pathname;
    const hidden = missing.some((m) => m.method === request.method && m.path === path);
    const response = hidden
      ? Response.json(
          { status: 404, message: 'Not found', instance: 'proxy', retryable: false },
          { status: 404 },
        )
      : await fetch(request);
    calls.push({
      method: request.method,
      path,
      status: response.status,
      authorization: request.headers.get('x-authorization'),
    });
    return response;
  };
  return { fetch: recording, calls };
}

/** Drops the SDK's info/debug chatter and keeps what it logs as errors, for tests to look at. */
export function collectingLogger(): { logger: ConductorLogger; errors: string[] } {
  const errors: string[] = [];
  const logger: ConductorLogger = {
    info: () => {},
    debug: () => {},
    warn: () => {},
    error: (...args: unknown[]) => {
      errors.push(args.map((a) => (a instanceof Error ? a.message : String(a))).join(' '));
    },
  };
  return { logger, errors };
}

/**
 * The SDK lets CONDUCTOR_* environment variables beat the config object, so a
 * machine with leftovers would point the tests elsewhere or turn auth on. Clear them first.
 */
export function clearConductorEnv(): void {
  for (const key of Object.keys(process.env)) {
    if (key.startsWith('CONDUCTOR_')) delete process.env[key];
  }
}

export async function sdkClient(
  serverUrl: string,
  options: { keyId?: string; keySecret?: string; fetch?: typeof fetch; logger?: ConductorLogger } = {},
): Promise<SdkClient> {
  clearConductorEnv();
  return orkesConductorClient(
    {
      serverUrl,
      keyId: options.keyId,
      keySecret: options.keySecret,
      logger: options.logger ?? collectingLogger().logger,
    },
    options.fetch,
  );
}

/** A worker as applications write one: a task definition name and an async function of the task. */
export function worker(taskDefName: string, execute: ConductorWorker['execute']): ConductorWorker {
  // A short poll interval keeps the tests fast; everything else is the SDK's default.
  return { taskDefName, execute, pollInterval: 20 };
}

/** Starts the SDK's worker runtime (TaskHandler) for the given workers only. */
export async function startWorkers(
  client: SdkClient,
  workers: ConductorWorker[],
  logger: ConductorLogger,
): Promise<TaskHandler> {
  const handler = new TaskHandler({
    client,
    workers,
    scanForDecorated: false,
    logger,
    healthMonitor: { enabled: false },
  });
  await handler.startWorkers();
  return handler;
}

/**
 * Runs `taskName` with one SDK worker on `client` (completing each task with output { ok: true })
 * until run `id` is COMPLETED as `executor` reads it, then stops the worker; the completed run.
 */
export async function completedWithOkWorker(
  client: SdkClient,
  executor: WorkflowExecutor,
  id: string,
  taskName: string,
  logger: ConductorLogger,
): Promise<Workflow> {
  const handler = await startWorkers(
    client,
    [worker(taskName, async () => ({ status: 'COMPLETED', outputData: { ok: true } }))],
    logger,
  );
  try {
    return await eventually(async () => {
      const current = await executor.getWorkflow(id, true);
      if (current.status !== 'COMPLETED') throw new Error(`run ${id} is ${current.status}`);
      return current;
    }, 15_000);
  } finally {
    await handler.stopWorkers();
  }
}

export type { Task };
