/**
 * The performance summary (`npm run bench:summary`; `npm run bench:cost` prints the cost and bundle
 * sections only): hand-off latency, DO_WHILE iteration time, task executions per second and server
 * CPU per task beside the plain-request rate, store operations per transition, the AWS cost per
 * million SIMPLE task executions and of an idle worker, and the functions' bundle sizes, side by
 * side. See bench/README.md for what each figure means. Options (flag or BENCH_* variable):
 *   --sections=handoff,throughput,store,cost,bundles  --workflows=2000 --workers=8 --batch=1
 *   --warmup=3000 --samples=300 --iterations=300 --count-workflows=200 --worker=plain,sdk
 *   --decider-batch=<the stack's, 10> --store-ms=5 --sqs-ms=10 --floor-requests=20000
 *   --response-timeout=3600 (the task definitions' responseTimeoutSeconds; at most 900, each run's
 *   wake-ups fall within SQS's delay limit and are armed as timer messages)
 *   --payload-bytes=0 (each run's input and each task's output about that many bytes of JSON,
 *   pseudo-random but shaped like real orders, so it deflates like real payloads: bench/lib/payload.ts)
 * Throughput, CPU, requests and cost are printed for both worker modes side by side
 * (bench/lib/load.ts: `plain` posts results to /api/tasks, `sdk` behaves like the official SDK's
 * TaskRunner with update-v2), each beside the machine's HTTP floor (bench/lib/http-floor.ts).
 */
import { availableParallelism } from 'node:os';
import { TARGET_UTILIZATION } from '../infra/constructs/data.ts';
import { PROPERTIES } from '../lib/config/properties.ts';
import { Args } from './lib/args.ts';
import { measureBundles } from './lib/bundles.ts';
import { startChildServer } from './lib/child-server.ts';
import {
  CONFIGURED_DECIDER_BATCH,
  type CostLine,
  type CostOptions,
  costPerTask,
  idleWorkerCost,
  type PerTask,
  PRICES,
  totalPerTask,
  withoutStorage,
} from './lib/cost-model.ts';
import { measureHandoff, measureLoop, registerHandoffWorkload } from './lib/handoff.ts';
import { HttpClient } from './lib/http-client.ts';
import { floorMsPerTask, type HttpFloor, measureHttpFloor } from './lib/http-floor.ts';
import { requestRate, type WorkerMode, workerModes } from './lib/load.ts';
import { loadAverage } from './lib/machine.ts';
import { payloadBytesOption } from './lib/payload.ts';
import { fmt, heading, percentile, table } from './lib/stats.ts';
import { totalOf } from './lib/tally.ts';
import {
  clientSocketsFor,
  countLoad,
  loadOptionsFor,
  measureLoad,
  type WorkloadShape,
} from './lib/throughput-run.ts';
import { registerWorkload, TASKS_PER_WORKFLOW } from './lib/workload.ts';

const args = new Args();
const sections = new Set(args.string('sections', 'handoff,throughput,store,cost,bundles').split(','));
const o = {
  workflows: args.int('workflows', 2000, 1),
  workers: args.int('workers', 8, 1),
  batch: args.int('batch', 1, 1),
  // Enough for V8 to have compiled the hot paths (bench/README.md: a fresh server).
  warmup: args.int('warmup', 3000),
  samples: args.int('samples', 300, 1),
  iterations: args.int('iterations', 300, 2),
  countWorkflows: args.int('count-workflows', 200, 1),
  deciderBatch: args.int('decider-batch', CONFIGURED_DECIDER_BATCH, 1),
  storeMs: args.int('store-ms', 5),
  sqsMs: args.int('sqs-ms', 10),
  modes: workerModes(args.string('worker', 'plain,sdk')),
  floorRequests: args.int('floor-requests', 20_000, 100),
  payloadBytes: payloadBytesOption(args),
  responseTimeout: args.int('response-timeout', 3600, 1),
};
const FUNCTION_MB = { http: 512, decider: 1024, timer: 512 };
const MODE_LABEL: Record<WorkerMode, string> = {
  plain: 'plain: POST /api/tasks',
  sdk: 'sdk: update-v2 chain',
};

const shapeOf = (worker: WorkerMode): WorkloadShape => ({
  taskTypes: 5,
  workers: o.workers,
  batch: o.batch,
  pollTimeoutMs: 100,
  startConcurrency: 8,
  inflight: 200,
  worker,
  payloadBytes: o.payloadBytes,
  responseTimeoutSeconds: o.responseTimeout,
});

/** Figures that do not depend on the worker mode: figure, value, aim. */
const rows: string[][] = [];
const add = (figure: string, value: string, aim = '') => rows.push([figure, value, aim]);
/** Figures per worker mode: figure, one value per mode, aim. */
const modeRows: string[][] = [];
const addByMode = (figure: string, value: (mode: WorkerMode) => string, aim = '') =>
  modeRows.push([figure, ...o.modes.map(value), aim]);
const ms = (v: number) => `${fmt(v, 3)} ms`;

interface Throughput {
  tasksPerSecond: number;
  serverCpuPerTask: number;
  /** Of serverCpuPerTask, the kernel's (system time). */
  serverKernelPerTask: number;
  /** Server CPU per task over the warm-up: a fresh server, V8 still compiling. */
  coldCpuPerTask: number;
  requestsPerTask: number;
  versionRate: number;
  otherCores: number;
  errors: number;
}

async function handoff(): Promise<void> {
  const server = await startChildServer();
  const client = new HttpClient(server.url, 4);
  try {
    await registerHandoffWorkload(client);
    await measureHandoff(client, 30);
    await measureLoop(client, 31);
    await measureLoop(client, 31, 'sdk');
    const samples = await measureHandoff(client, o.samples);
    const loop = await measureLoop(client, o.iterations + 1);
    const sdkLoop = await measureLoop(client, o.iterations + 1, 'sdk');
    add(
      'hand-off p50 / p99 (update answered -> waiting poll answered)',
      `${ms(percentile(samples, 50))} / ${ms(percentile(samples, 99))}`,
      'p50 < 1 ms',
    );
    add(
      'DO_WHILE iteration p50 / p99 (one SIMPLE body, one long-polling worker)',
      `${ms(percentile(loop, 50))} / ${ms(percentile(loop, 99))}`,
      'p50 < 3 ms',
    );
    add(
      "  the same with the SDK's update-v2 loop (the answer is the next iteration's task)",
      `${ms(percentile(sdkLoop, 50))} / ${ms(percentile(sdkLoop, 99))}`,
      'p50 < 3 ms',
    );
  } finally {
    client.close();
    await server.stop();
  }
}

/** The throughput pass of one worker mode, on a fresh child server. */
async function throughput(mode: WorkerMode): Promise<Throughput> {
  const shape = shapeOf(mode);
  const server = await startChildServer();
  const client = new HttpClient(server.url, clientSocketsFor(shape));
  try {
    await registerWorkload(client, shape.taskTypes, shape);
    const cold =
      o.warmup > 0 ? await measureLoad(client, server, loadOptionsFor(shape, o.warmup)) : undefined;
    const version = await requestRate(client, '/api/version', o.workers, 3);
    const { result, serverCpuMs, serverSystemCpuMs, otherCpuMs } = await measureLoad(
      client,
      server,
      loadOptionsFor(shape, o.workflows),
    );
    return {
      tasksPerSecond: result.tasksCompleted / (result.wallMs / 1000),
      serverCpuPerTask: serverCpuMs / result.tasksCompleted,
      serverKernelPerTask: serverSystemCpuMs / result.tasksCompleted,
      coldCpuPerTask: cold ? cold.serverCpuMs / cold.result.tasksCompleted : Number.NaN,
      requestsPerTask: result.httpRequests / result.tasksCompleted,
      versionRate: version.perSecond,
      otherCores: otherCpuMs / result.wallMs,
      errors: result.errors.length,
    };
  } finally {
    client.close();
    await server.stop();
  }
}

type Counted = PerTask & {
  reads: number;
  writes: number;
  indexWrites: number;
  bytes: number;
};

/** The metered pass of one worker mode: store operations and messages per SIMPLE task. */
async function counted(mode: WorkerMode, serverCpuPerTask: number): Promise<Counted> {
  const { snapshot, result } = await countLoad(shapeOf(mode), o.countWorkflows);
  const n = result.tasksCompleted;
  const all = totalOf(snapshot);
  const decide = totalOf(snapshot, 'decide');
  const httpRequests = result.httpRequests / n;
  const messages = snapshot.messages;
  return {
    httpRequests,
    httpStoreCalls: (all.calls - decide.calls) / n,
    httpCpuMs: serverCpuPerTask / httpRequests,
    decisionMessages: messages.decisionRequests / n,
    timerMessages: messages.timerMessages / n,
    decideStoreCalls: decide.calls / Math.max(1, messages.decisionRequests),
    decideCpuMs: serverCpuPerTask,
    readUnits: all.readUnits / n,
    writeUnits: all.writeUnits / n,
    // The workload's payloads stay below the external-payload threshold (payloadBytesOption):
    // nothing goes to S3.
    s3Puts: 0,
    s3Gets: 0,
    reads: all.reads / n,
    writes: all.writes / n,
    indexWrites: all.indexWrites / n,
    bytes: all.bytesWritten / n,
  };
}

const dollars = (v: number, d = 2) => `$${fmt(v, d)}`;

/** Provisioned tables as the stack scales them (`-c tableCapacity=provisioned`). */
const PROVISIONED = { mode: 'provisioned', utilization: TARGET_UTILIZATION / 100 } as const;

const costOf = (t: PerTask, deciderBatch: number, tables: CostOptions['tables'] = undefined): CostLine[] =>
  costPerTask(t, {
    tables,
    http: { memoryMb: FUNCTION_MB.http },
    decider: { memoryMb: FUNCTION_MB.decider },
    timer: { memoryMb: FUNCTION_MB.timer },
    deciderBatch,
    storeMs: o.storeMs,
    sqsMs: o.sqsMs,
  });

function idleWorkers(): void {
  const defaultOf = (name: string) => Number(PROPERTIES.find((p) => p.name === name)?.default);
  const idle = {
    http: { memoryMb: FUNCTION_MB.http },
    rttMs: 20,
    rereadInitialMs: defaultOf('service.tasks.poll.reread-initial'),
    rereadMaxMs: defaultOf('service.tasks.poll.reread-max'),
    storeMs: o.storeMs,
  };
  for (const polling of [
    {
      name: 'SDK defaults (pollInterval 100, batchPollingTimeout 100)',
      pollIntervalMs: 100,
      pollTimeoutMs: 100,
    },
    {
      name: 'README (pollInterval 1000, batchPollingTimeout 100)',
      pollIntervalMs: 1000,
      pollTimeoutMs: 100,
    },
  ]) {
    const c = idleWorkerCost(polling, idle);
    add(
      `idle worker per month, ${polling.name}`,
      `${dollars(c.monthly)} (${fmt(c.pollsPerSecond, 2)} polls/s, ${c.readsPerPoll} read/poll)`,
    );
  }
}

function bundles(): void {
  const sized = measureBundles();
  const largest = sized[0];
  if (!largest) return;
  add(
    `largest function package, zipped (of ${sized.length})`,
    `${largest.name} ${fmt(largest.zippedBytes / 1024, 0)} KB (${fmt(largest.unzippedBytes / 1024, 0)} KB unzipped)`,
    '<= 1,024 KB',
  );
  const sizes = sized.slice(1).map((b) => b.zippedBytes / 1024);
  add('other function packages, zipped', `${fmt(Math.min(...sizes), 0)}-${fmt(Math.max(...sizes), 0)} KB`);
}

/** The cost breakdown of one worker mode, at decider batch 1 and at the configured batch. */
function printCost(mode: WorkerMode, t: PerTask): void {
  const one = costOf(t, 1);
  const many = costOf(t, o.deciderBatch);
  const provisioned = costOf(t, o.deciderBatch, PROVISIONED);
  console.log(
    heading(`AWS cost per SIMPLE task execution, ${MODE_LABEL[mode]} (${PRICES.region}, ${PRICES.asOf})`),
  );
  console.log(
    table(
      [
        'item',
        '$/M, decider batch 1',
        `$/M, batch ${o.deciderBatch}`,
        `$/M, batch ${o.deciderBatch}, provisioned`,
        'counted per task',
      ],
      [
        ...one.map((line, i) => {
          const other = many[i] as CostLine;
          const detail =
            other.detail === line.detail
              ? line.detail
              : `${line.detail}; batch ${o.deciderBatch}: ${other.detail}`;
          return [
            line.item,
            dollars(line.perTask * 1e6, 3),
            dollars(other.perTask * 1e6, 3),
            dollars((provisioned[i] as CostLine).perTask * 1e6, 3),
            detail,
          ];
        }),
        [
          'total',
          dollars(totalPerTask(one) * 1e6, 2),
          dollars(totalPerTask(many) * 1e6, 2),
          dollars(totalPerTask(provisioned) * 1e6, 2),
          '',
        ],
      ],
    ),
  );
}

async function main(): Promise<void> {
  console.log(`load average at start: ${loadAverage()}`);
  if (sections.has('handoff')) await handoff();
  const measured = new Map<WorkerMode, Throughput>();
  const countedBy = new Map<WorkerMode, Counted>();
  const wantsThroughput = sections.has('throughput') || sections.has('cost');
  let floor: HttpFloor | undefined;
  if (wantsThroughput) {
    floor = await measureHttpFloor({ requests: o.floorRequests, concurrency: o.workers });
    for (const mode of o.modes) measured.set(mode, await throughput(mode));
  }
  if (sections.has('store') || sections.has('cost')) {
    for (const mode of o.modes)
      countedBy.set(mode, await counted(mode, measured.get(mode)?.serverCpuPerTask ?? Number.NaN));
  }
  const m = (mode: WorkerMode) => measured.get(mode) as Throughput;
  const c = (mode: WorkerMode) => countedBy.get(mode) as Counted;
  if (floor) {
    const f = floor;
    add(
      `bare node:http server CPU per request (this machine's floor; ${fmt(f.requests, 0)} keep-alive POSTs, ${f.concurrency} callers)`,
      `${fmt(f.serverCpuUs, 0)} µs (client ${fmt(f.clientCpuUs, 0)} µs, ${fmt(f.requestsPerSecond, 0)} req/s)`,
    );
    addByMode(
      `task executions/s (${o.workflows} x ${TASKS_PER_WORKFLOW} SIMPLE, ${o.workers} workers, one task at a time)`,
      (mode) => fmt(m(mode).tasksPerSecond, 0),
      '>= 3,000',
    );
    addByMode('server CPU per task execution', (mode) => ms(m(mode).serverCpuPerTask), '<= 0.30 ms');
    addByMode('  of which in the kernel (system time: socket reads and writes)', (mode) =>
      ms(m(mode).serverKernelPerTask),
    );
    addByMode(`  the same over the warm-up (${o.warmup} runs on a fresh server)`, (mode) =>
      ms(m(mode).coldCpuPerTask),
    );
    addByMode('HTTP requests per task', (mode) => fmt(m(mode).requestsPerTask, 2));
    addByMode('floor per task at those requests/task (bare node:http CPU x requests)', (mode) =>
      ms(floorMsPerTask(f, m(mode).requestsPerTask)),
    );
    addByMode(
      `server CPU per task / requests per task, decides included (floor ${fmt(f.serverCpuUs, 0)} µs)`,
      (mode) => `${fmt((1000 * m(mode).serverCpuPerTask) / m(mode).requestsPerTask, 0)} µs`,
    );
    addByMode(`GET /api/version rate, ${o.workers} clients (plain-request ceiling)`, (mode) =>
      fmt(m(mode).versionRate, 0),
    );
    // A task is two requests (a poll and an update): at a plain request's cost it would run at
    // half the request rate.
    addByMode(
      'task executions/s as a share of half the /api/version rate',
      (mode) => fmt((2 * m(mode).tasksPerSecond) / m(mode).versionRate, 2),
      '>= 0.45',
    );
    addByMode(`CPU other processes took during the run (of ${availableParallelism()} cores)`, (mode) =>
      fmt(m(mode).otherCores, 2),
    );
    if (o.modes.some((mode) => m(mode).errors > 0))
      addByMode('load errors', (mode) => String(m(mode).errors));
  }
  if (sections.has('store')) {
    addByMode('store reads per transition', (mode) => fmt(c(mode).reads / 3, 2), '<= 2');
    addByMode(
      'store writes + index writes per transition',
      (mode) => `${fmt(c(mode).writes / 3, 2)} + ${fmt(c(mode).indexWrites / 3, 2)}`,
      '<= 4 writes',
    );
    addByMode('bytes written per transition', (mode) => fmt(c(mode).bytes / 3, 0));
    addByMode(
      'RRU / WRU per SIMPLE task (modelled from item sizes)',
      (mode) => `${fmt(c(mode).readUnits, 2)} / ${fmt(c(mode).writeUnits, 2)}`,
    );
  }
  if (sections.has('cost')) {
    addByMode('HTTP requests per task, metered pass (priced below)', (mode) => fmt(c(mode).httpRequests, 2));
    addByMode(
      `AWS cost per million SIMPLE task executions, decider batch 1 / ${o.deciderBatch}`,
      (mode) =>
        `${dollars(totalPerTask(costOf(c(mode), 1)) * 1e6)} / ${dollars(totalPerTask(costOf(c(mode), o.deciderBatch)) * 1e6)}`,
      '<= $3.00',
    );
    addByMode(
      `  the same, batch ${o.deciderBatch}, tables on provisioned capacity at ${TARGET_UTILIZATION}% use`,
      (mode) => dollars(totalPerTask(costOf(c(mode), o.deciderBatch, PROVISIONED)) * 1e6),
    );
    addByMode(
      `  the same, batch ${o.deciderBatch}, without DynamoDB (API Gateway, Lambda, SQS: the design's floor)`,
      (mode) => dollars(totalPerTask(withoutStorage(costOf(c(mode), o.deciderBatch))) * 1e6),
    );
    add(
      'Step Functions Standard, per million state transitions',
      dollars(PRICES.stepFunctionsTransition * 1e6),
    );
    add(
      "decider batch: the stack's decision-queue event source (lib/jobs/decision-consumers.ts)",
      `${CONFIGURED_DECIDER_BATCH} messages, reportBatchItemFailures`,
    );
    idleWorkers();
  }
  if (sections.has('bundles')) bundles();

  console.log(heading('Performance summary'));
  if (modeRows.length > 0) {
    console.log(
      table(['figure, by worker mode', ...o.modes.map((mode) => MODE_LABEL[mode]), 'aim'], modeRows),
    );
    console.log('');
  }
  if (rows.length > 0) console.log(table(['figure', 'value', 'aim'], rows));
  if (sections.has('cost')) {
    for (const mode of o.modes) printCost(mode, c(mode));
    console.log(
      [
        'Billed time per invocation: CPU (the server CPU per task measured above, charged to the HTTP',
        "requests and again to each decide: an upper bound) / the memory's vCPU share, plus",
        `${o.storeMs} ms per store call and ${o.sqsMs} ms per SQS send, in sequence. Decider batch 1: every`,
        `decide its own invocation (the costliest case); batch ${o.deciderBatch}: full batches of distinct runs, decided`,
        'concurrently (CPU adds up, round trips overlap; a FIFO event source has no batching window, so',
        'batches fill only while a backlog waits). SQS: one FIFO send per decision message, one receive',
        'and one delete per decider invocation. Provisioned: the tables on provisioned capacity',
        `(-c tableCapacity=provisioned), auto scaling keeping ${TARGET_UTILIZATION}% of it in use, priced per unit used.`,
      ].join('\n'),
    );
  }
  console.log(`load average at end: ${loadAverage()}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
