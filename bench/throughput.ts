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
 *   --inflight=200 --task-types=5 --warmup=3000 --version-seconds=3 --alone-workflows=50
 *   --count-workflows=200 --worker=plain (or sdk, or plain,sdk) --floor-requests=20000 --cpu-prof
 *   --response-timeout=3600 (the task definitions' responseTimeoutSeconds)
 *   --payload-bytes=0 (each run's input and each task's output about that many bytes of JSON,
 *   pseudo-random but shaped like real orders, so it deflates like real payloads: bench/lib/payload.ts)
 * Beside the server's CPU per task it prints the machine's floor: the CPU a bare node:http server
 * spends per keep-alive request here, times the run's requests per task (bench/lib/http-floor.ts).
 */
import { mkdtempSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Args } from './lib/args.ts';
import { type ChildServer, startChildServer } from './lib/child-server.ts';
import { printCounts } from './lib/count-report.ts';
import { summariseProfile } from './lib/cpu-profile.ts';
import { HttpClient } from './lib/http-client.ts';
import { floorMsPerTask, type HttpFloor, measureHttpFloor } from './lib/http-floor.ts';
import { requestRate, runLoad, type WorkerMode, workerModes } from './lib/load.ts';
import { payloadBytesOption } from './lib/payload.ts';
import { fmt, heading, percentile, table } from './lib/stats.ts';
import {
  clientSocketsFor,
  confirmCompleted,
  countLoad,
  loadOptionsFor,
  measureLoad,
  steadyRate,
  type WorkloadShape,
} from './lib/throughput-run.ts';
import { registerWorkload, TASKS_PER_WORKFLOW, taskTypesOf, WORKFLOW_NAME } from './lib/workload.ts';

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
  // Enough for V8 to have compiled the hot paths (bench/README.md: a fresh server).
  warmup: args.int('warmup', 3000),
  versionSeconds: args.int('version-seconds', 3, 1),
  aloneWorkflows: args.int('alone-workflows', 50, 1),
  countWorkflows: args.int('count-workflows', 200, 1),
  cpuProf: args.bool('cpu-prof'),
  workerModes: workerModes(args.string('worker', 'plain')),
  floorRequests: args.int('floor-requests', 20_000, 100),
  payloadBytes: payloadBytesOption(args),
  responseTimeout: args.int('response-timeout', 3600, 1),
};

const shapeOf = (worker: WorkerMode): WorkloadShape => ({
  taskTypes: options.taskTypes,
  workers: options.workers,
  batch: options.batch,
  pollTimeoutMs: options.pollTimeoutMs,
  startConcurrency: options.startConcurrency,
  inflight: options.inflight,
  worker,
  payloadBytes: options.payloadBytes,
  responseTimeoutSeconds: options.responseTimeout,
});

const WORKER_LABEL: Record<WorkerMode, string> = {
  plain: 'plain workers (batch poll, POST /api/tasks)',
  sdk: 'SDK workers (poll count=1, POST /api/tasks/update-v2 chaining the next task)',
};

async function throughputPass(worker: WorkerMode, floor: HttpFloor): Promise<void> {
  const shape = shapeOf(worker);
  const profDir = options.cpuProf ? mkdtempSync(join(tmpdir(), 'bench-cpu-prof-')) : undefined;
  const server: ChildServer = await startChildServer({ cpuProfDir: profDir });
  const client = new HttpClient(server.url, clientSocketsFor(shape));
  let profile: string | undefined;
  let window: { fromUs: number; toUs: number } | undefined;
  try {
    await registerWorkload(client, options.taskTypes, shape);
    let coldCpuPerTask = Number.NaN;
    if (options.warmup > 0) {
      const warm = await measureLoad(client, server, loadOptionsFor(shape, options.warmup));
      if (warm.result.errors.length > 0) throw new Error(`warm-up failed: ${warm.result.errors[0]}`);
      coldCpuPerTask = warm.serverCpuMs / warm.result.tasksCompleted;
    }
    const version = await requestRate(client, '/api/version', options.workers, options.versionSeconds);

    const measured = await measureLoad(client, server, loadOptionsFor(shape, options.workflows));
    const { result, serverCpuMs, serverSystemCpuMs, benchCpuMs, otherCpuMs, loadBefore, loadAfter } =
      measured;
    window = measured.window;
    const { latencies, notCompleted } = await confirmCompleted(client, result.workflowIds);
    // One run at a time: the latency of the engine path itself, without queueing behind other runs.
    const alone = await runLoad(client, {
      ...loadOptionsFor(shape, options.aloneWorkflows),
      startConcurrency: 1,
      inflight: 1,
    });
    const aloneServer = await confirmCompleted(client, alone.workflowIds);

    const seconds = result.wallMs / 1000;
    const tasksPerSecond = result.tasksCompleted / seconds;
    const httpPerSecond = result.httpRequests / seconds;
    const requestsPerTask = result.httpRequests / result.tasksCompleted;

    console.log(heading(`Throughput and latency, ${WORKER_LABEL[worker]} (child server, loopback HTTP)`));
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
            `${result.httpRequests} / ${fmt(requestsPerTask, 2)} / ${fmt(httpPerSecond, 0)}`,
          ],
          [
            'batch polls / empty polls / tasks per non-empty poll',
            `${result.polls} / ${result.emptyPolls} / ${fmt((result.tasksCompleted - result.chained) / Math.max(1, result.polls - result.emptyPolls), 2)}`,
          ],
          ['tasks handed over by update-v2 answers (no poll)', String(result.chained)],
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
            '  of which in the kernel (system time: socket reads and writes)',
            `${fmt(serverSystemCpuMs / result.tasksCompleted, 3)} ms`,
          ],
          [
            `  the same over the warm-up (${options.warmup} runs on a fresh server, V8 still compiling)`,
            `${fmt(coldCpuPerTask, 3)} ms`,
          ],
          [
            `bare node:http server CPU per request (this machine's floor, ${fmt(floor.requests, 0)} keep-alive POSTs)`,
            `${fmt(floor.serverCpuUs, 0)} µs (client ${fmt(floor.clientCpuUs, 0)} µs)`,
          ],
          [
            `floor per task at ${fmt(requestsPerTask, 2)} requests/task (bare server CPU x requests)`,
            `${fmt(floorMsPerTask(floor, requestsPerTask), 3)} ms`,
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
  if (profile && window) {
    console.log(heading('Server CPU profile (samples taken during the measured run only)'));
    console.log(`profile: ${profile}`);
    console.log(summariseProfile(profile, window).text);
  }
}

function latencyCells(values: readonly number[]): string {
  return `${fmt(percentile(values, 50), 1)} / ${fmt(percentile(values, 99), 1)} / ${fmt(percentile(values, 100), 1)} ms`;
}

async function countingPass(worker: WorkerMode): Promise<void> {
  const { snapshot, result } = await countLoad(shapeOf(worker), options.countWorkflows);
  console.log(`\nCounting pass with ${WORKER_LABEL[worker]}:`);
  printCounts(snapshot, {
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
          `${options.workers}, long-poll timeout=${options.pollTimeoutMs} ms: ${options.workerModes
            .map((m) =>
              m === 'plain'
                ? `plain (batch poll count=${options.batch}, results posted in parallel)`
                : 'sdk (poll count=1, update-v2)',
            )
            .join('; ')}`,
        ],
        [
          'starts',
          `${options.startConcurrency} start requests in flight, at most ${options.inflight || 'unbounded'} runs open`,
        ],
        ['warm-up', `${options.warmup} workflows before measuring (not counted)`],
      ],
    ),
  );
  const floor = await measureHttpFloor({ requests: options.floorRequests, concurrency: options.workers });
  for (const worker of options.workerModes) await throughputPass(worker, floor);
  for (const worker of options.workerModes) await countingPass(worker);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
