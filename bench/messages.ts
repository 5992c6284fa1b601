/**
 * Workflow message queue benchmark (`npm run bench:messages`): one workflow runs the event loop (a
 * PULL_WORKFLOW_MESSAGES inside a DO_WHILE) on the local server, in process, while 10,000 messages
 * are pushed over HTTP at a steady rate. A message counts as processed when the pull task that
 * carries it is written COMPLETED (observed on the execution store, so the benchmark never polls
 * the API). Reports messages per second through the loop, and the push-to-processed latency (from
 * just before the push request is sent) p50/p99/max, for each store.
 * A warm-up of 300 messages (the script sandbox and the JIT start) runs first and is not reported.
 * Options: --messages=10000 --rate=1000 (pushes per second) --batch=100 --warmup=300
 * --stores=memory,dynamodb
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { configOf } from '../lib/config/load.ts';
import { silentLogger } from '../lib/log/logger.ts';
import type { TaskRecord } from '../lib/model/execution.ts';
import { createLocalStores, startLocalServer } from '../lib/runtime/local.ts';
import { Args } from './lib/args.ts';
import { loadAverage } from './lib/machine.ts';
import { fmt, heading, percentile, table } from './lib/stats.ts';

const args = new Args();
const total = args.int('messages', 10_000, 1);
const rate = args.int('rate', 1000, 1);
const batch = args.int('batch', 100, 1);
const warmup = args.int('warmup', 300, 0);
const stores = args
  .string('stores', 'memory,embedded,dynamodb')
  .split(',')
  .map((s) => s.trim());

const WORKFLOW = 'bench_event_loop';
const definition = {
  name: WORKFLOW,
  version: 1,
  tasks: [
    {
      name: 'loop',
      taskReferenceName: 'loop',
      type: 'DO_WHILE',
      loopCondition:
        "if ($.pull['messages'].some(function (m) { return m.payload.stop === true; })) { false; } else { true; }",
      // Only the last iterations stay in the run: the loop may go round thousands of times.
      inputParameters: { keepLastN: 5 },
      loopOver: [
        {
          name: 'pull',
          taskReferenceName: 'pull',
          type: 'PULL_WORKFLOW_MESSAGES',
          inputParameters: { batchSize: batch },
        },
      ],
    },
  ],
};

interface Result {
  store: string;
  seconds: number;
  latencies: number[];
  pulls: number;
}

async function run(store: string): Promise<Result> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-messages-'));
  const config = configOf({
    'service.store': store,
    'service.server.port': 0,
    'service.local.data-dir': dataDir,
    'service.workflow-message-queue.enabled': true,
    'service.workflow-message-queue.maxQueueSize': total + 10,
    'service.workflow-message-queue.maxBatchSize': batch,
  });
  const serviceStores = await createLocalStores(config, silentLogger);
  const sentAt = new Map<number, number>();
  const latencies: number[] = [];
  let pulls = 0;
  let warmed = 0;
  let lastProcessed = 0;
  // Observe completed pulls on the store: each message's processing time, no API polling.
  const executions = serviceStores.executions;
  const updateTask = executions.updateTask.bind(executions);
  executions.updateTask = async (task: TaskRecord, expectedRev: number) => {
    await updateTask(task, expectedRev);
    if (task.taskType !== 'PULL_WORKFLOW_MESSAGES' || task.status !== 'COMPLETED') return;
    const now = performance.now();
    pulls += 1;
    for (const m of (task.outputData.messages ?? []) as { payload: { n?: number } }[]) {
      if (m.payload.n !== undefined && m.payload.n < 0) warmed += 1;
      const sent = m.payload.n === undefined ? undefined : sentAt.get(m.payload.n);
      if (sent !== undefined) {
        latencies.push(now - sent);
        lastProcessed = now;
      }
    }
  };
  const server = await startLocalServer(config, { logger: silentLogger, stores: serviceStores });
  try {
    const post = (path: string, body: unknown) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    await post('/api/metadata/workflow', definition);
    const id = await (await post(`/api/workflow/${WORKFLOW}`, {})).text();
    for (let n = 1; n <= warmup; n++) await post(`/api/workflow/${id}/messages`, { n: -n });
    while (warmed < warmup) await new Promise((resolve) => setTimeout(resolve, 20));
    pulls = 0;
    const start = performance.now();
    const pushes: Promise<void>[] = [];
    for (let n = 0; n < total; n++) {
      const due = start + (n * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
      sentAt.set(n, performance.now());
      pushes.push(
        post(`/api/workflow/${id}/messages`, { n }).then(async (r) => {
          if (r.status !== 200) throw new Error(`push ${n}: ${r.status} ${await r.text()}`);
        }),
      );
    }
    await Promise.all(pushes);
    const deadline = performance.now() + 120_000;
    while (latencies.length < total && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    if (latencies.length < total) throw new Error(`only ${latencies.length} of ${total} messages processed`);
    await post(`/api/workflow/${id}/messages`, { stop: true });
    return { store, seconds: (lastProcessed - start) / 1000, latencies, pulls };
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(heading(`event loop: ${total} messages pushed at ${rate}/s, batchSize ${batch}`));
console.log(`load average before: ${loadAverage()}`);
const rows: string[][] = [];
for (const store of stores) {
  const r = await run(store);
  rows.push([
    r.store,
    fmt(r.latencies.length / r.seconds, 0),
    String(r.pulls),
    fmt(percentile(r.latencies, 50)),
    fmt(percentile(r.latencies, 99)),
    fmt(Math.max(...r.latencies)),
  ]);
}
console.log(table(['store', 'msgs/s', 'pulls', 'p50 ms', 'p99 ms', 'max ms'], rows));
console.log(`load average after: ${loadAverage()}`);
