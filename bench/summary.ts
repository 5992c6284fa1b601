/**
 * The performance summary (`npm run bench:summary`; `npm run bench:cost` prints the cost and bundle
 * sections only): hand-off latency, DO_WHILE iteration time, task executions per second and server
 * CPU per task beside the plain-request rate, store operations per transition, the AWS cost per
 * million SIMPLE task executions and of an idle worker, and the functions' bundle sizes, side by
 * side. See bench/README.md for what each figure means. Options (flag or BENCH_* variable):
 *   --sections=handoff,throughput,store,cost,bundles  --workflows=500 --workers=8 --batch=1
 *   --warmup=100 --samples=300 --iterations=300 --count-workflows=200 --decider-batch=1
 *   --store-ms=5 --sqs-ms=10
 */
import { availableParallelism } from 'node:os';
import { PROPERTIES } from '../lib/config/properties.ts';
import { Args } from './lib/args.ts';
import { measureBundles } from './lib/bundles.ts';
import { startChildServer } from './lib/child-server.ts';
import { type CostLine, costPerTask, idleWorkerCost, type PerTask, PRICES } from './lib/cost-model.ts';
import { measureHandoff, measureLoop, registerHandoffWorkload } from './lib/handoff.ts';
import { HttpClient } from './lib/http-client.ts';
import { startMeteredServer } from './lib/instrument.ts';
import { requestRate, runLoad } from './lib/load.ts';
import { loadAverage, machineBusyMs } from './lib/machine.ts';
import { fmt, heading, percentile, table } from './lib/stats.ts';
import { diffSnapshots, totalOf } from './lib/tally.ts';
import {
  LAST_REF,
  registerWorkload,
  TASKS_PER_WORKFLOW,
  taskTypesOf,
  WORKFLOW_NAME,
} from './lib/workload.ts';

const args = new Args();
const sections = new Set(args.string('sections', 'handoff,throughput,store,cost,bundles').split(','));
const o = {
  workflows: args.int('workflows', 500, 1),
  workers: args.int('workers', 8, 1),
  batch: args.int('batch', 1, 1),
  warmup: args.int('warmup', 100),
  samples: args.int('samples', 300, 1),
  iterations: args.int('iterations', 300, 2),
  countWorkflows: args.int('count-workflows', 200, 1),
  deciderBatch: args.int('decider-batch', 1, 1),
  storeMs: args.int('store-ms', 5),
  sqsMs: args.int('sqs-ms', 10),
};
const FUNCTION_MB = { http: 512, decider: 1024, timer: 512 };

const rows: string[][] = [];
const add = (figure: string, value: string, aim = '') => rows.push([figure, value, aim]);
const ms = (v: number) => `${fmt(v, 3)} ms`;

const loadOf = (workflows: number) => ({
  workflowName: WORKFLOW_NAME,
  taskTypes: [...new Set(taskTypesOf(5))],
  lastRef: LAST_REF,
  workflows,
  startConcurrency: 8,
  inflight: 200,
  workers: o.workers,
  batch: o.batch,
  pollTimeoutMs: 100,
});

/** Server CPU per task, from the throughput pass (or measured alone for the cost section). */
let serverCpuPerTask = Number.NaN;

async function handoffAndThroughput(): Promise<void> {
  const server = await startChildServer();
  const client = new HttpClient(server.url, o.workers * o.batch + 16);
  try {
    if (sections.has('handoff')) {
      await registerHandoffWorkload(client);
      await measureHandoff(client, 30);
      await measureLoop(client, 31);
      const handoff = await measureHandoff(client, o.samples);
      const loop = await measureLoop(client, o.iterations + 1);
      add(
        'hand-off p50 / p99 (update answered -> waiting poll answered)',
        `${ms(percentile(handoff, 50))} / ${ms(percentile(handoff, 99))}`,
        'p50 < 1 ms',
      );
      add(
        'DO_WHILE iteration p50 / p99 (one SIMPLE body, one long-polling worker)',
        `${ms(percentile(loop, 50))} / ${ms(percentile(loop, 99))}`,
        'p50 < 3 ms',
      );
    }
    if (sections.has('throughput') || sections.has('cost')) {
      await registerWorkload(client, 5);
      if (o.warmup > 0) await runLoad(client, loadOf(o.warmup));
      const version = await requestRate(client, '/api/version', o.workers, 3);
      const busyBefore = machineBusyMs();
      const cpuBefore = server.cpuMs() ?? Number.NaN;
      const own = process.cpuUsage();
      const result = await runLoad(client, loadOf(o.workflows));
      const serverCpu = (server.cpuMs() ?? Number.NaN) - cpuBefore;
      const ownCpu = process.cpuUsage(own);
      const other =
        (machineBusyMs() ?? Number.NaN) -
        (busyBefore ?? Number.NaN) -
        serverCpu -
        (ownCpu.user + ownCpu.system) / 1000;
      serverCpuPerTask = serverCpu / result.tasksCompleted;
      add(
        `task executions/s (${o.workflows} x ${TASKS_PER_WORKFLOW} SIMPLE, ${o.workers} workers, count=${o.batch})`,
        fmt(result.tasksCompleted / (result.wallMs / 1000), 0),
        '>= 3,000',
      );
      add('server CPU per task execution', ms(serverCpuPerTask), '<= 0.25 ms');
      add(
        `GET /api/version rate, ${o.workers} clients (plain-request ceiling)`,
        `${fmt(version.perSecond, 0)} req/s`,
      );
      add(
        'CPU taken by other processes during the run',
        `${fmt(other / result.wallMs, 2)} of ${availableParallelism()} cores`,
      );
      if (result.errors.length > 0) add('load errors', String(result.errors.length));
    }
  } finally {
    client.close();
    await server.stop();
  }
}

/** The metered pass: store operations and messages per SIMPLE task (in process, memory stores). */
async function counted(): Promise<
  PerTask & { transitions: number; reads: number; writes: number; indexWrites: number; bytes: number }
> {
  const metered = await startMeteredServer({ sizes: true });
  const client = new HttpClient(metered.server.url, o.workers * o.batch + 16);
  try {
    await registerWorkload(client, 5);
    await metered.idle();
    const before = metered.meter.snapshot();
    const sentBefore = client.sent;
    const result = await runLoad(client, loadOf(o.countWorkflows));
    await metered.idle();
    const snapshot = diffSnapshots(metered.meter.snapshot(), before);
    const n = result.tasksCompleted;
    const all = totalOf(snapshot);
    const decide = totalOf(snapshot, 'decide');
    const httpCalls = all.calls - decide.calls;
    const httpRequests = (client.sent - sentBefore) / n;
    const messages = snapshot.messages;
    return {
      httpRequests,
      httpStoreCalls: httpCalls / n,
      httpCpuMs: serverCpuPerTask / httpRequests,
      decisionMessages: messages.decisionRequests / n,
      timerMessages: messages.timerMessages / n,
      decideStoreCalls: decide.calls / Math.max(1, messages.decisionRequests),
      decideCpuMs: serverCpuPerTask,
      readUnits: all.readUnits / n,
      writeUnits: all.writeUnits / n,
      // The workload's payloads stay far below the external-payload threshold: nothing goes to S3.
      s3Puts: 0,
      s3Gets: 0,
      transitions: 3,
      reads: all.reads / n,
      writes: all.writes / n,
      indexWrites: all.indexWrites / n,
      bytes: all.bytesWritten / n,
    };
  } finally {
    client.close();
    await metered.server.close();
  }
}

const dollars = (v: number, d = 2) => `$${fmt(v, d)}`;

async function main(): Promise<void> {
  console.log(`load average at start: ${loadAverage()}`);
  if (sections.has('handoff') || sections.has('throughput') || sections.has('cost'))
    await handoffAndThroughput();
  let costLines: CostLine[] = [];
  if (sections.has('store') || sections.has('cost')) {
    const t = await counted();
    if (sections.has('store')) {
      add('store reads per transition', fmt(t.reads / 3, 2), '<= 2');
      add(
        'store writes + index writes per transition',
        `${fmt(t.writes / 3, 2)} + ${fmt(t.indexWrites / 3, 2)}`,
        '<= 4 writes',
      );
      add('bytes written per transition', fmt(t.bytes / 3, 0));
      add(
        'RRU / WRU per SIMPLE task (modelled from item sizes)',
        `${fmt(t.readUnits, 2)} / ${fmt(t.writeUnits, 2)}`,
      );
    }
    if (sections.has('cost')) {
      costLines = costPerTask(t, {
        http: { memoryMb: FUNCTION_MB.http },
        decider: { memoryMb: FUNCTION_MB.decider },
        timer: { memoryMb: FUNCTION_MB.timer },
        deciderBatch: o.deciderBatch,
        storeMs: o.storeMs,
        sqsMs: o.sqsMs,
      });
      const total = costLines.reduce((sum, l) => sum + l.perTask, 0);
      add('AWS cost per million SIMPLE task executions', dollars(total * 1e6), '<= $3.00');
      add(
        '  Step Functions Standard, per million state transitions',
        dollars(PRICES.stepFunctionsTransition * 1e6),
      );
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
  }
  if (sections.has('bundles')) {
    const bundles = measureBundles();
    const largest = bundles[0];
    if (largest) {
      add(
        `largest function package, zipped (of ${bundles.length})`,
        `${largest.name} ${fmt(largest.zippedBytes / 1024, 0)} KB (${fmt(largest.unzippedBytes / 1024, 0)} KB unzipped)`,
        '<= 1,024 KB',
      );
      const others = bundles.slice(1);
      const sizes = others.map((b) => b.zippedBytes / 1024);
      add(
        'other function packages, zipped',
        `${fmt(Math.min(...sizes), 0)}-${fmt(Math.max(...sizes), 0)} KB`,
      );
    }
  }
  console.log(heading('Performance summary'));
  console.log(table(['figure', 'value', 'aim'], rows));
  if (costLines.length > 0) {
    console.log(heading(`AWS cost per SIMPLE task execution (${PRICES.region}, ${PRICES.asOf})`));
    console.log(
      table(
        ['item', '$ per million tasks', 'counted per task'],
        costLines.map((l) => [l.item, dollars(l.perTask * 1e6, 3), l.detail]),
      ),
    );
    console.log(
      `Billed time per invocation: CPU per request (server CPU per task, measured above, charged to the HTTP requests and again to the decides: an upper bound) / the memory's vCPU share, plus ${o.storeMs} ms per store call and ${o.sqsMs} ms per SQS send, in sequence.`,
    );
  }
  console.log(`load average at end: ${loadAverage()}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
