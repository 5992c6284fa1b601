/**
 * The workflow load: runs started over HTTP with bounded concurrency (and a bound on runs open at
 * once), completed by workers that batch-poll and post results like the Conductor SDK's workers
 * do. The same driver serves the throughput pass (server in a child process) and the counting pass
 * (metered server in process).
 */
import { performance } from 'node:perf_hooks';
import { expectStatus, type HttpClient } from './http-client.ts';

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
  let finished = 0;
  let started = 0;
  let open = 0;
  let done = false;
  let allDone: () => void = () => {};
  const allFinished = new Promise<void>((resolve) => {
    allDone = resolve;
  });
  const waiting: (() => void)[] = [];

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
          await client.post(`/api/workflow/${encodeURIComponent(options.workflowName)}`, { n: started }),
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

  const worker = async (index: number) => {
    const workerId = `bench-worker-${index}`;
    let round = index;
    while (!done) {
      const type = options.taskTypes[round++ % options.taskTypes.length] as string;
      let tasks: ApiTask[];
      try {
        const res = expectStatus(
          await client.get(
            `/api/tasks/poll/batch/${encodeURIComponent(type)}?count=${options.batch}&timeout=${options.pollTimeoutMs}&workerid=${workerId}`,
          ),
          'poll',
        );
        tasks = JSON.parse(res.body) as ApiTask[];
      } catch (error) {
        errors.push(String(error));
        if (errors.length > 20) throw error;
        continue;
      }
      polls++;
      if (tasks.length === 0) {
        emptyPolls++;
        continue;
      }
      await Promise.all(
        tasks.map(async (task) => {
          try {
            expectStatus(
              await client.post('/api/tasks', {
                workflowInstanceId: task.workflowInstanceId,
                taskId: task.taskId,
                status: 'COMPLETED',
                workerId,
                outputData: { by: workerId, ref: task.referenceTaskName },
              }),
              'update',
            );
          } catch (error) {
            errors.push(String(error));
            if (errors.length > 20) throw error;
            return;
          }
          const at = performance.now() - t0;
          taskDoneAt.push(at);
          if (task.referenceTaskName === options.lastRef) runFinished(task.workflowInstanceId, at);
        }),
      );
    }
  };

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
