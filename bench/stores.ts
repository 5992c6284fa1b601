/**
 * The local stores side by side (`npm run bench:stores`): memory, the embedded store (the default)
 * and the DynamoDB adapter on dynalite, each behind its own child server, under the same load as
 * `npm run bench` (runs of five SIMPLE tasks, workers polling one task at a time and reporting with
 * POST /api/tasks). Server CPU is read from the server process's own clock (/proc), over the
 * measured run only. Options: --stores=memory,embedded,dynamodb --workflows=500 --workers=8
 * --batch=1 --warmup=100 --inflight=200 --repeats=1 (rounds, stores taking turns; medians)
 * --cpu-prof (profile each server, print its summary).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Args } from './lib/args.ts';
import { startChildServer } from './lib/child-server.ts';
import { summariseProfile } from './lib/cpu-profile.ts';
import { HttpClient } from './lib/http-client.ts';
import { runLoad } from './lib/load.ts';
import { fmt, heading, percentile, table } from './lib/stats.ts';
import {
  clientSocketsFor,
  confirmCompleted,
  loadOptionsFor,
  measureLoad,
  type WorkloadShape,
} from './lib/throughput-run.ts';
import { registerWorkload } from './lib/workload.ts';

const args = new Args();
const stores = args.string('stores', 'memory,embedded,dynamodb').split(',');
const workflows = args.int('workflows', 500, 1);
const warmup = args.int('warmup', 100);
const cpuProf = args.bool('cpu-prof');
const repeats = args.int('repeats', 1, 1);
const shape: WorkloadShape = {
  taskTypes: 5,
  workers: args.int('workers', 8, 1),
  batch: args.int('batch', 1, 1),
  pollTimeoutMs: 100,
  startConcurrency: 8,
  inflight: args.int('inflight', 200),
  worker: 'plain',
  payloadBytes: 0,
  responseTimeoutSeconds: 3600,
};

interface Row {
  store: string;
  tasksPerSecond: number;
  cpuPerTaskMs: number;
  p50Ms: number;
  completed: number;
  peakRssMb: number;
}

async function measure(store: string): Promise<Row> {
  const dataDir = mkdtempSync(join(tmpdir(), `bench-stores-${store}-`));
  const profDir = cpuProf ? mkdtempSync(join(tmpdir(), 'bench-stores-prof-')) : undefined;
  const server = await startChildServer({
    cpuProfDir: profDir,
    env: { SERVICE_STORE: store, SERVICE_LOCAL_DATA_DIR: dataDir },
  });
  let window: { fromUs: number; toUs: number } | undefined;
  const client = new HttpClient(server.url, clientSocketsFor(shape));
  try {
    await registerWorkload(client, shape.taskTypes, shape);
    if (warmup > 0) await runLoad(client, loadOptionsFor(shape, warmup));
    const measured = await measureLoad(client, server, loadOptionsFor(shape, workflows));
    const { result, serverCpuMs } = measured;
    window = measured.window;
    const { latencies } = await confirmCompleted(client, result.workflowIds);
    return {
      store,
      tasksPerSecond: result.tasksCompleted / (result.wallMs / 1000),
      cpuPerTaskMs: serverCpuMs / result.tasksCompleted,
      p50Ms: percentile(latencies, 50),
      completed: latencies.length,
      peakRssMb: server.peakRssMb() ?? Number.NaN,
    };
  } finally {
    client.close();
    const profile = await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
    if (profile && window) {
      console.log(heading(`Server CPU profile, ${store} store (measured run only)`));
      console.log(`profile: ${profile}`);
      console.log(summariseProfile(profile, window).text);
    }
  }
}

console.log(
  `${availableParallelism()} CPUs (${cpus()[0]?.model ?? 'unknown'}), node ${process.version}; ${workflows} runs of 5 SIMPLE tasks, ${shape.workers} workers, batch ${shape.batch}`,
);
// The stores take turns, `repeats` rounds, so a change in the machine's speed during the bench
// falls on every store alike; each figure is the median of its store's rounds.
const rounds = new Map<string, Row[]>();
for (let round = 0; round < repeats; round++) {
  for (const store of stores) rounds.set(store, [...(rounds.get(store) ?? []), await measure(store)]);
}
const median = (values: number[]) => percentile(values, 50);
const rows: Row[] = stores.map((store) => {
  const measured = rounds.get(store) ?? [];
  return {
    store,
    tasksPerSecond: median(measured.map((r) => r.tasksPerSecond)),
    cpuPerTaskMs: median(measured.map((r) => r.cpuPerTaskMs)),
    p50Ms: median(measured.map((r) => r.p50Ms)),
    completed: Math.min(...measured.map((r) => r.completed)),
    peakRssMb: Math.max(...measured.map((r) => r.peakRssMb)),
  };
});
if (repeats > 1) {
  console.log(heading(`Each round (${repeats} rounds, stores in turn)`));
  console.log(
    table(
      ['store', 'task executions/s by round', 'server CPU per task by round (ms)'],
      stores.map((store) => [
        store,
        (rounds.get(store) ?? []).map((r) => fmt(r.tasksPerSecond, 0)).join(' / '),
        (rounds.get(store) ?? []).map((r) => fmt(r.cpuPerTaskMs, 3)).join(' / '),
      ]),
    ),
  );
}
const memory = rows.find((r) => r.store === 'memory');
console.log(
  heading(
    `Task throughput by store (child server, loopback HTTP${repeats > 1 ? `, median of ${repeats} rounds` : ''})`,
  ),
);
console.log(
  table(
    [
      'store',
      'task executions/s',
      'x memory',
      'server CPU per task',
      'run p50 (createTime -> endTime)',
      'runs COMPLETED (fewest)',
      'peak RSS',
    ],
    rows.map((r) => [
      r.store,
      fmt(r.tasksPerSecond, 0),
      memory ? fmt(r.tasksPerSecond / memory.tasksPerSecond, 2) : '-',
      `${fmt(r.cpuPerTaskMs, 3)} ms`,
      `${fmt(r.p50Ms, 0)} ms`,
      `${r.completed} of ${workflows}`,
      `${fmt(r.peakRssMb, 0)} MB`,
    ]),
  ),
);
