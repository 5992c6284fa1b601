/**
 * The workflow load: runs started over HTTP with bounded concurrency (and a bound on runs open at
 * once), completed by workers of one of two kinds (WorkerMode). The same driver serves the
 * throughput pass (server in a child process) and the counting pass (metered server in process).
 */
import { performance } from 'node:perf_hooks';
import { expectStatus, type HttpClient } from './http-client.ts';
import { type Payload, payloadPool } from './payload.ts';

/**
 * How the workers poll and report (bench/README.md):
 * - `plain`: each worker polls the task types in rotation (`count` = batch) and posts every result
 *   to `POST /api/tasks` in parallel;
 * - `sdk`: the official JavaScript SDK's TaskRunner at concurrency 1: polls `count=1`, reports
 *   with `POST /api/tasks/update-v2` and runs the task that answer hands it at once (update-v2
 *   answers the next task of the same type); it polls again only when update-v2 answers 204. Like
 *   the plain workers, it polls the task types in rotation, so both modes spread the same workers
 *   evenly over the types and differ only in the protocol. (The SDK binds each poller to one type,
 *   and sleeps `pollInterval` between poll cycles; with one poller per type the slowest type paces
 *   the run, and a sleep would measure the sleep, not the server.)
 */
export type WorkerMode = 'plain' | 'sdk';
export const WORKER_MODES: readonly WorkerMode[] = ['plain', 'sdk'];

/** Parses a comma-separated list of worker modes (`plain`, `sdk`). */
export function workerModes(text: string): WorkerMode[] {
  const modes = text
    .split(',')
    .map((m) => m.trim())
    .filter((m) => m !== '');
  const unknown = modes.filter((m) => !(WORKER_MODES as readonly string[]).includes(m));
  if (modes.length === 0 || unknown.length > 0) {
    throw new Error(`--worker must list ${WORKER_MODES.join(' and/or ')}, got '${text}'`);
  }
  return [...new Set(modes)] as WorkerMode[];
}

export interface LoadOptions {
  workflowName: string;
  /** Task types the workers poll, in rotation. */
  taskTypes: readonly string[];
  /** Reference name of the run's last task: its completion completes the run. */
  lastRef: string;
  workflows: number;
  /** Start requests in flight at once. */
  startConcurrency: number;
  /** Runs started and not yet finished at once; 0 for no bound. */
  inflight: number;
  workers: number;
  /** `count` of each batch poll. */
  batch: number;
  /** `timeout` of each batch poll (long poll), ms. */
  pollTimeoutMs: number;
  /** Worker kind; `sdk` ignores `batch` (it polls one task at a time). */
  worker: WorkerMode;
  /**
   * About this many bytes of JSON as each run's input `data` and each task's output `data`
   * (bench/lib/payload.ts; the workload passes them on as task inputs); 0 for none.
   */
  payloadBytes?: number;
}

export interface LoadResult {
  workflowIds: string[];
  /** First start sent to last task update answered, ms. */
  wallMs: number;
  tasksCompleted: number;
  /** Completion time of each task update (ms since the load began), in order. */
  taskDoneAt: number[];
  /** Per run: start sent -> update of its last task answered, ms. */
  clientLatencyMs: number[];
  httpRequests: number;
  polls: number;
  emptyPolls: number;
  /** Tasks handed to a worker by an update-v2 answer instead of a poll (`sdk` workers). */
  chained: number;
  errors: string[];
}

interface ApiTask {
  taskId: string;
  workflowInstanceId: string;
  referenceTaskName: string;
}

export async function runLoad(client: HttpClient, options: LoadOptions): Promise<LoadResult> {
  const t0 = performance.now();
  const sentAt = new Map<string, number>();
  const lastDoneAt = new Map<string, number>();
  const workflowIds: string[] = [];
  const taskDoneAt: number[] = [];
  const clientLatencyMs: number[] = [];
  const errors: string[] = [];
  const requestsBefore = client.sent;
  let polls = 0;
  let emptyPolls = 0;
  let chained = 0;
  let finished = 0;
  let started = 0;
  let open = 0;
  let done = false;
  let allDone: () => void = () => {};
  const allFinished = new Promise<void>((resolve) => {
    allDone = resolve;
  });
  const waiting: (() => void)[] = [];
  const payloads = (options.payloadBytes ?? 0) > 0 ? payloadPool(options.payloadBytes ?? 0) : [];
  let handedOut = 0;
  /** `{ data }` with the next payload of the pool, or nothing without payloads. */
  const data = (): { data?: Payload } =>
    payloads.length > 0 ? { data: payloads[handedOut++ % payloads.length] as Payload } : {};

  const runFinished = (workflowId: string, at: number) => {
    const sent = sentAt.get(workflowId);
    if (sent === undefined) {
      lastDoneAt.set(workflowId, at);
      return;
    }
    clientLatencyMs.push(at - sent);
    open--;
    waiting.shift()?.();
    finished++;
    if (finished >= options.workflows) {
      done = true;
      allDone();
    }
  };

  const starter = async () => {
    while (started < options.workflows && !done) {
      if (options.inflight > 0 && open >= options.inflight) {
        await new Promise<void>((resolve) => waiting.push(resolve));
        continue;
      }
      started++;
      open++;
      const at = performance.now() - t0;
      try {
        const res = expectStatus(
          await client.post(`/api/workflow/${encodeURIComponent(options.workflowName)}`, {
            n: started,
            ...data(),
          }),
          'start',
        );
        sentAt.set(res.body, at);
        workflowIds.push(res.body);
        const early = lastDoneAt.get(res.body);
        if (early !== undefined) runFinished(res.body, early);
      } catch (error) {
        errors.push(String(error));
        open--;
        started--;
        if (errors.length > 20) throw error;
      }
    }
  };

  const failed = (error: unknown) => {
    errors.push(String(error));
    if (errors.length > 20) throw error;
  };

  /** One batch poll; undefined when it failed (counted in errors). */
  const poll = async (type: string, count: number, workerId: string): Promise<ApiTask[] | undefined> => {
    try {
      const res = expectStatus(
        await client.get(
          `/api/tasks/poll/batch/${encodeURIComponent(type)}?count=${count}&timeout=${options.pollTimeoutMs}&workerid=${workerId}`,
        ),
        'poll',
      );
      const tasks = JSON.parse(res.body) as ApiTask[];
      polls++;
      if (tasks.length === 0) emptyPolls++;
      return tasks;
    } catch (error) {
      failed(error);
      return undefined;
    }
  };

  const resultOf = (task: ApiTask, workerId: string) => ({
    workflowInstanceId: task.workflowInstanceId,
    taskId: task.taskId,
    status: 'COMPLETED',
    workerId,
    outputData: { by: workerId, ref: task.referenceTaskName, ...data() },
  });

  const completed = (task: ApiTask) => {
    const at = performance.now() - t0;
    taskDoneAt.push(at);
    if (task.referenceTaskName === options.lastRef) runFinished(task.workflowInstanceId, at);
  };

  const plainWorker = async (index: number) => {
    const workerId = `bench-worker-${index}`;
    let round = index;
    while (!done) {
      const type = options.taskTypes[round++ % options.taskTypes.length] as string;
      const tasks = await poll(type, options.batch, workerId);
      if (!tasks || tasks.length === 0) continue;
      await Promise.all(
        tasks.map(async (task) => {
          try {
            expectStatus(await client.post('/api/tasks', resultOf(task, workerId)), 'update');
          } catch (error) {
            failed(error);
            return;
          }
          completed(task);
        }),
      );
    }
  };

  const sdkWorker = async (index: number) => {
    const workerId = `bench-sdk-worker-${index}`;
    let round = index;
    while (!done) {
      const type = options.taskTypes[round++ % options.taskTypes.length] as string;
      let task = (await poll(type, 1, workerId))?.[0];
      while (task) {
        let next: ApiTask | undefined;
        try {
          const res = expectStatus(
            await client.post('/api/tasks/update-v2', resultOf(task, workerId)),
            'update-v2',
            [200, 204],
          );
          next = res.status === 200 ? (JSON.parse(res.body) as ApiTask) : undefined;
        } catch (error) {
          failed(error);
          break;
        }
        completed(task);
        if (next) chained++;
        task = next;
      }
    }
  };

  const worker = options.worker === 'sdk' ? sdkWorker : plainWorker;
  const starters = Array.from({ length: options.startConcurrency }, () => starter());
  const workers = Array.from({ length: options.workers }, (_, i) => worker(i));
  await Promise.all(starters);
  if (options.workflows > 0) await allFinished;
  const wallMs = performance.now() - t0;
  done = true;
  await Promise.all(workers);
  return {
    workflowIds,
    wallMs,
    tasksCompleted: taskDoneAt.length,
    taskDoneAt,
    clientLatencyMs,
    httpRequests: client.sent - requestsBefore,
    polls,
    emptyPolls,
    chained,
    errors,
  };
}

/** Requests per second of GET `path` with `concurrency` callers for `seconds`. */
export async function requestRate(
  client: HttpClient,
  path: string,
  concurrency: number,
  seconds: number,
): Promise<{ perSecond: number; requests: number; p50Ms: number; p99Ms: number }> {
  const latencies: number[] = [];
  const t0 = performance.now();
  const until = t0 + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const at = performance.now();
        expectStatus(await client.get(path), path);
        latencies.push(performance.now() - at);
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  const pick = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.ceil(p * latencies.length) - 1)] ?? 0;
  return {
    perSecond: latencies.length / elapsed,
    requests: latencies.length,
    p50Ms: pick(0.5),
    p99Ms: pick(0.99),
  };
}
