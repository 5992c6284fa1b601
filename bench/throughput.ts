/**
 * Throughput benchmark (`npm run bench`): workflows of five SIMPLE tasks, started over HTTP and
 * completed by batch-polling workers, against the local server with the in-memory store.
 *
 * Pass 1 runs the server in a child process and measures task executions per second, workflow
 * latency, server CPU per task, and the plain loopback request rate of a trivial route against the
 * same server with the same client concurrency. Pass 2 runs a metered server in this process and
 * counts store reads, writes, modelled index writes and queue messages per task and per state
 * transition. See bench/README.md for what each figure means. Options (flag or BENCH_* variable):
 *   --workflows=2000 --workers=8 --batch=10 --poll-timeout=100 --start-concurrency=8
 *   --inflight=200 --task-types=5 --warmup=200 --version-seconds=3 --alone-workflows=50
 *   --count-workflows=200 --cpu-prof
 */
import { mkdtempSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Args } from './lib/args.ts';
import { type ChildServer, startChildServer } from './lib/child-server.ts';
import { printCounts } from './lib/count-report.ts';
import { profileClockUs, summariseProfile } from './lib/cpu-profile.ts';
import { expectStatus, HttpClient } from './lib/http-client.ts';
import { startMeteredServer } from './lib/instrument.ts';
import { type LoadOptions, type LoadResult, requestRate, runLoad } from './lib/load.ts';
import { loadAverage, machineBusyMs } from './lib/machine.ts';
import { fmt, forEachLimit, heading, percentile, table } from './lib/stats.ts';
import { diffSnapshots } from './lib/tally.ts';
import {
  LAST_REF,
  registerWorkload,
  TASKS_PER_WORKFLOW,
  taskTypesOf,
  WORKFLOW_NAME,
} from './lib/workload.ts';

const AIM_TASKS_PER_SECOND = 2000;
const AIM_WRITES_PER_TRANSITION = 4;
const AIM_READS_PER_TRANSITION = 2;

const args = new Args();
const options = {
  workflows: args.int('workflows', 2000, 1),
  workers: args.int('workers', 8, 1),
  batch: args.int('batch', 10, 1),
  pollTimeoutMs: args.int('poll-timeout', 100),
  startConcurrency: args.int('start-concurrency', 8, 1),
  inflight: args.int('inflight', 200),
  taskTypes: args.int('task-types', 5, 1),
  warmup: args.int('warmup', 200),
  versionSeconds: args.int('version-seconds', 3, 1),
  aloneWorkflows: args.int('alone-workflows', 50, 1),
  countWorkflows: args.int('count-workflows', 200, 1),
  cpuProf: args.bool('cpu-prof'),
};

function loadOptions(workflows: number): LoadOptions {
  return {
    workflowName: WORKFLOW_NAME,
    taskTypes: [...new Set(taskTypesOf(options.taskTypes))],
    lastRef: LAST_REF,
    workflows,
    startConcurrency: options.startConcurrency,
    inflight: options.inflight,
    workers: options.workers,
    batch: options.batch,
    pollTimeoutMs: options.pollTimeoutMs,
  };
}

const clientSockets = () => options.workers * options.batch + options.startConcurrency + 8;

/** Reads every run back; answers server-side latencies (createTime -> endTime) of the COMPLETED ones. */
async function confirmCompleted(
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

function steadyRate(result: LoadResult): number {
  const done = [...result.taskDoneAt].sort((a, b) => a - b);
  const from = Math.floor(done.length * 0.1);
  const to = Math.floor(done.length * 0.9);
  const span = ((done[to] ?? 0) - (done[from] ?? 0)) / 1000;
  return span > 0 ? (to - from) / span : Number.NaN;
}

async function throughputPass(): Promise<void> {
  const profDir = options.cpuProf ? mkdtempSync(join(tmpdir(), 'bench-cpu-prof-')) : undefined;
  const server: ChildServer = await startChildServer({ cpuProfDir: profDir });
  const client = new HttpClient(server.url, clientSockets());
  let profile: string | undefined;
  const window: { fromUs?: number; toUs?: number } = {};
  try {
    await registerWorkload(client, options.taskTypes);
    if (options.warmup > 0) {
      const warm = await runLoad(client, loadOptions(options.warmup));
      if (warm.errors.length > 0) throw new Error(`warm-up failed: ${warm.errors[0]}`);
    }
    const version = await requestRate(client, '/api/version', options.workers, options.versionSeconds);

    const loadBefore = loadAverage();
    const machineBefore = machineBusyMs();
    const cpuBefore = server.cpuMs();
    const benchCpuBefore = process.cpuUsage();
    window.fromUs = profileClockUs();
    const result = await runLoad(client, loadOptions(options.workflows));
    window.toUs = profileClockUs();
    const cpuAfter = server.cpuMs();
    const benchCpu = process.cpuUsage(benchCpuBefore);
    const machineAfter = machineBusyMs();
    const loadAfter = loadAverage();
    const { latencies, notCompleted } = await confirmCompleted(client, result.workflowIds);
    // One run at a time: the latency of the engine path itself, without queueing behind other runs.
    const alone = await runLoad(client, {
      ...loadOptions(options.aloneWorkflows),
      startConcurrency: 1,
      inflight: 1,
    });
    const aloneServer = await confirmCompleted(client, alone.workflowIds);

    const seconds = result.wallMs / 1000;
    const tasksPerSecond = result.tasksCompleted / seconds;
    const httpPerSecond = result.httpRequests / seconds;
    const serverCpuMs = cpuBefore !== undefined && cpuAfter !== undefined ? cpuAfter - cpuBefore : Number.NaN;
    const benchCpuMs = (benchCpu.user + benchCpu.system) / 1000;
    const otherCpuMs =
      machineBefore !== undefined && machineAfter !== undefined
        ? machineAfter - machineBefore - serverCpuMs - benchCpuMs
        : Number.NaN;

    console.log(heading('Throughput and latency (server in a child process, HTTP over loopback)'));
    console.log(
      table(
        ['figure', 'value'],
        [
          [
            'workflows completed (confirmed COMPLETED by GET afterwards)',
            `${latencies.length} of ${options.workflows}`,
          ],
          ['SIMPLE tasks completed', String(result.tasksCompleted)],
          ['wall time, first start sent -> last task update answered', `${fmt(seconds, 2)} s`],
          ['task executions/s, overall', fmt(tasksPerSecond, 0)],
          ['task executions/s, steady state (10th..90th pct of completions)', fmt(steadyRate(result), 0)],
          ['workflows/s, overall', fmt(options.workflows / seconds, 0)],
          ['workflow latency p50 / p99 / max, server (createTime -> endTime)', latencyCells(latencies)],
          [
            'workflow latency p50 / p99 / max, client (start sent -> last update acked)',
            latencyCells(result.clientLatencyMs),
          ],
          [
            `  (with ${options.inflight || 'unbounded'} runs open, latency ~ runs open / workflows per second)`,
            '',
          ],
          [
            `workflow latency p50 / p99 / max, ${options.aloneWorkflows} runs one at a time, server`,
            latencyCells(aloneServer.latencies),
          ],
          [
            'HTTP requests during the run / per task / per second',
            `${result.httpRequests} / ${fmt(result.httpRequests / result.tasksCompleted, 2)} / ${fmt(httpPerSecond, 0)}`,
          ],
          [
            'batch polls / empty polls / tasks per non-empty poll',
            `${result.polls} / ${result.emptyPolls} / ${fmt(result.tasksCompleted / Math.max(1, result.polls - result.emptyPolls), 2)}`,
          ],
          [
            `GET /api/version with ${options.workers} concurrent clients (same server, same client)`,
            `${fmt(version.perSecond, 0)} req/s (p50 ${fmt(version.p50Ms, 2)} ms, p99 ${fmt(version.p99Ms, 2)} ms)`,
          ],
          [
            'run HTTP request rate as a share of the /api/version rate',
            `${fmt((100 * httpPerSecond) / version.perSecond, 0)}%`,
          ],
          [
            'server CPU per task execution',
            `${fmt(serverCpuMs / result.tasksCompleted, 3)} ms (${fmt((100 * serverCpuMs) / result.wallMs, 0)}% of one core over the run)`,
          ],
          [
            'single-thread ceiling at that CPU cost (1,000 ms / server CPU per task)',
            `${fmt((1000 * result.tasksCompleted) / serverCpuMs, 0)} task executions/s`,
          ],
          [
            'load-generator CPU per task execution (this process)',
            `${fmt(benchCpuMs / result.tasksCompleted, 3)} ms`,
          ],
          [
            `CPU taken by OTHER processes during the run (of ${availableParallelism()} cores)`,
            `${fmt(otherCpuMs / result.wallMs, 2)} cores (load avg before ${loadBefore}, after ${loadAfter})`,
          ],
          ['server peak RSS', `${fmt(server.peakRssMb() ?? Number.NaN, 0)} MB`],
          [
            `aim >= ${AIM_TASKS_PER_SECOND} task executions/s`,
            tasksPerSecond >= AIM_TASKS_PER_SECOND ? 'met' : 'NOT met',
          ],
        ],
      ),
    );
    if (notCompleted.size > 0)
      console.log(`NOT COMPLETED: ${JSON.stringify(Object.fromEntries(notCompleted))}`);
    if (result.errors.length > 0)
      console.log(`errors (${result.errors.length}): ${result.errors.slice(0, 3).join(' | ')}`);
  } finally {
    client.close();
    profile = await server.stop();
  }
  if (profile) {
    console.log(heading('Server CPU profile (samples taken during the measured run only)'));
    console.log(`profile: ${profile}`);
    console.log(summariseProfile(profile, window).text);
  }
}

function latencyCells(values: readonly number[]): string {
  return `${fmt(percentile(values, 50), 1)} / ${fmt(percentile(values, 99), 1)} / ${fmt(percentile(values, 100), 1)} ms`;
}

async function countingPass(): Promise<void> {
  const metered = await startMeteredServer({ sizes: true });
  const client = new HttpClient(metered.server.url, clientSockets());
  try {
    await registerWorkload(client, options.taskTypes);
    await metered.idle();
    const before = metered.meter.snapshot();
    const result = await runLoad(client, loadOptions(options.countWorkflows));
    await metered.idle();
    const after = metered.meter.snapshot();
    const { latencies } = await confirmCompleted(client, result.workflowIds);
    if (latencies.length !== options.countWorkflows) {
      throw new Error(`counting pass: ${latencies.length} of ${options.countWorkflows} runs COMPLETED`);
    }
    printCounts(diffSnapshots(after, before), {
      tasks: result.tasksCompleted,
      tasksPerWorkflow: TASKS_PER_WORKFLOW,
      taskTypes: new Set(taskTypesOf(options.taskTypes)).size,
      workflowName: WORKFLOW_NAME,
      aims: {
        tasksPerSecond: AIM_TASKS_PER_SECOND,
        readsPerTransition: AIM_READS_PER_TRANSITION,
        writesPerTransition: AIM_WRITES_PER_TRANSITION,
      },
    });
  } finally {
    client.close();
    await metered.server.close();
  }
}

async function main(): Promise<void> {
  console.log(heading('Setup'));
  console.log(
    table(
      ['setting', 'value'],
      [
        [
          'machine',
          `${availableParallelism()} CPUs (${cpus()[0]?.model ?? 'unknown'}), node ${process.version}`,
        ],
        ['server', 'local server, in-memory store, separate process (pass 1) / in this process (pass 2)'],
        [
          'workload',
          `${options.workflows} workflows x ${TASKS_PER_WORKFLOW} SIMPLE tasks, ${new Set(taskTypesOf(options.taskTypes)).size} task type(s)`,
        ],
        [
          'workers',
          `${options.workers}, batch poll count=${options.batch}, long-poll timeout=${options.pollTimeoutMs} ms, results posted in parallel`,
        ],
        [
          'starts',
          `${options.startConcurrency} start requests in flight, at most ${options.inflight || 'unbounded'} runs open`,
        ],
        ['warm-up', `${options.warmup} workflows before measuring (not counted)`],
      ],
    ),
  );
  await throughputPass();
  await countingPass();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
