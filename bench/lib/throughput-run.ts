/**
 * The throughput workload's two passes, shared by `npm run bench` (bench/throughput.ts) and
 * `npm run bench:summary` (bench/summary.ts):
 * - measureLoad: a load against the server in a child process, with the server's CPU (/proc), this
 *   process's CPU and the CPU other processes took from the machine meanwhile;
 * - countLoad: the same load against a metered server in this process, counting store operations
 *   and queue messages.
 */

import type { ChildServer } from './child-server.ts';
import { profileClockUs } from './cpu-profile.ts';
import { expectStatus, HttpClient } from './http-client.ts';
import { startMeteredServer } from './instrument.ts';
import { type LoadOptions, type LoadResult, runLoad, type WorkerMode } from './load.ts';
import { loadAverage, machineBusyMs } from './machine.ts';
import { forEachLimit } from './stats.ts';
import { diffSnapshots, type MeterSnapshot } from './tally.ts';
import { LAST_REF, registerWorkload, taskTypesOf, WORKFLOW_NAME } from './workload.ts';

export interface WorkloadShape {
  /** Distinct task types among the five tasks (5: one each; 1: one shared). */
  taskTypes: number;
  workers: number;
  batch: number;
  pollTimeoutMs: number;
  startConcurrency: number;
  inflight: number;
  worker: WorkerMode;
  /** JSON bytes of each run's input and each task's output (bench/lib/payload.ts); 0 for none. */
  payloadBytes?: number;
  /** The task definitions' responseTimeoutSeconds (Conductor's default, 3600, when absent). */
  responseTimeoutSeconds?: number;
}

export const loadOptionsFor = (shape: WorkloadShape, workflows: number): LoadOptions => ({
  workflowName: WORKFLOW_NAME,
  taskTypes: [...new Set(taskTypesOf(shape.taskTypes))],
  lastRef: LAST_REF,
  workflows,
  startConcurrency: shape.startConcurrency,
  inflight: shape.inflight,
  workers: shape.workers,
  batch: shape.batch,
  pollTimeoutMs: shape.pollTimeoutMs,
  worker: shape.worker,
  payloadBytes: shape.payloadBytes ?? 0,
});

/** Sockets the client needs for a load of that shape (every caller its own keep-alive socket). */
export const clientSocketsFor = (shape: WorkloadShape): number =>
  shape.workers * shape.batch + shape.startConcurrency + 8;

export interface MeasuredLoad {
  result: LoadResult;
  /** CPU of the server process during the load, ms (/proc/<pid>/stat; NaN off Linux). */
  serverCpuMs: number;
  /** Of serverCpuMs, the kernel's (system time). */
  serverSystemCpuMs: number;
  /** CPU of this process (the load generator), ms. */
  benchCpuMs: number;
  /** CPU the machine spent on other processes meanwhile, ms (NaN off Linux). */
  otherCpuMs: number;
  loadBefore: string;
  loadAfter: string;
  /** The load's span on the profile clock (bench/lib/cpu-profile.ts), µs. */
  window: { fromUs: number; toUs: number };
}

/** Runs a load against the child server and measures the CPU it and everything else took. */
export async function measureLoad(
  client: HttpClient,
  server: ChildServer,
  options: LoadOptions,
): Promise<MeasuredLoad> {
  const loadBefore = loadAverage();
  const machineBefore = machineBusyMs() ?? Number.NaN;
  const cpuBefore = server.cpuMs() ?? Number.NaN;
  const systemBefore = server.systemCpuMs() ?? Number.NaN;
  const own = process.cpuUsage();
  const fromUs = profileClockUs();
  const result = await runLoad(client, options);
  const toUs = profileClockUs();
  const serverCpuMs = (server.cpuMs() ?? Number.NaN) - cpuBefore;
  const serverSystemCpuMs = (server.systemCpuMs() ?? Number.NaN) - systemBefore;
  const ownUsed = process.cpuUsage(own);
  const machineAfter = machineBusyMs() ?? Number.NaN;
  const benchCpuMs = (ownUsed.user + ownUsed.system) / 1000;
  return {
    result,
    serverCpuMs,
    serverSystemCpuMs,
    benchCpuMs,
    otherCpuMs: machineAfter - machineBefore - serverCpuMs - benchCpuMs,
    loadBefore,
    loadAfter: loadAverage(),
    window: { fromUs, toUs },
  };
}

/** Task executions per second between the 10th and 90th percentile of completions. */
export function steadyRate(result: LoadResult): number {
  const done = [...result.taskDoneAt].sort((a, b) => a - b);
  const from = Math.floor(done.length * 0.1);
  const to = Math.floor(done.length * 0.9);
  const span = ((done[to] ?? 0) - (done[from] ?? 0)) / 1000;
  return span > 0 ? (to - from) / span : Number.NaN;
}

/** Reads every run back; answers server-side latencies (createTime -> endTime) of the COMPLETED ones. */
export async function confirmCompleted(
  client: HttpClient,
  ids: readonly string[],
): Promise<{ latencies: number[]; notCompleted: Map<string, number> }> {
  const latencies: number[] = [];
  const notCompleted = new Map<string, number>();
  await forEachLimit(ids, 8, async (id) => {
    for (let attempt = 0; ; attempt++) {
      const run = JSON.parse(
        expectStatus(await client.get(`/api/workflow/${id}?includeTasks=false`), 'get workflow').body,
      ) as { status: string; createTime: number; endTime: number };
      if (run.status === 'COMPLETED') {
        latencies.push(run.endTime - run.createTime);
        return;
      }
      // The decide after the last task's update may still be running.
      if (attempt >= 50) {
        notCompleted.set(run.status, (notCompleted.get(run.status) ?? 0) + 1);
        return;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  });
  return { latencies, notCompleted };
}

export interface CountedLoad {
  /** Store operations and queue messages of the load alone (the registration left out). */
  snapshot: MeterSnapshot;
  result: LoadResult;
}

/**
 * The load against a metered server in this process (memory stores), every run confirmed
 * COMPLETED afterwards.
 */
export async function countLoad(shape: WorkloadShape, workflows: number): Promise<CountedLoad> {
  const metered = await startMeteredServer({ sizes: true });
  const client = new HttpClient(metered.server.url, clientSocketsFor(shape));
  try {
    await registerWorkload(client, shape.taskTypes, shape);
    await metered.idle();
    const before = metered.meter.snapshot();
    const result = await runLoad(client, loadOptionsFor(shape, workflows));
    await metered.idle();
    const snapshot = diffSnapshots(metered.meter.snapshot(), before);
    const { latencies } = await confirmCompleted(client, result.workflowIds);
    if (latencies.length !== workflows) {
      throw new Error(`counting pass: ${latencies.length} of ${workflows} runs COMPLETED`);
    }
    return { snapshot, result };
  } finally {
    client.close();
    await metered.server.close();
  }
}
