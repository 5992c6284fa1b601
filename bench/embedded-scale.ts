/**
 * The embedded store at scale (`npm run bench:scale`): --runs finished runs (default 100,000) of
 * five SIMPLE tasks in an embedded store directory, then the real local server started on it in a
 * child process (SERVICE_STORE=embedded), as after a restart.
 *
 * Seeding, in this process: a local server over the embedded store in the directory registers the
 * five-SIMPLE-task workflow (and --types copies under other names) and runs it once through the
 * engine; that run's record and task rows are the template. Every seeded run is a copy of it under
 * its own id, task ids (ids.ts), name, input and times (spread evenly over the last --hours, the
 * newest a minute before seeding), one in 21 FAILED on its last task, written through the host's
 * ExecutionStore port (createWorkflow + createTasks, --batch runs at a time, each call acknowledged
 * once durable); then the template run is removed and the server closed.
 *
 * Measured on the child server: time from spawn to the first 200 of GET /health (beside the same
 * on an empty store), its resident memory (VmRSS) after start and after the searches, and the
 * latency of GET /api/workflow/search over HTTP (one warm-up call, then --iterations; the free
 * text scan, last, --scan-iterations) with the RSS after each query. Aims: start <= 3 s, RSS
 * <= 300 MB, window / type queries p50 <= 200 ms, free text <= 1 s.
 *
 * Options: --runs=100000 --types=10 --hours=48 --batch=200 --iterations=10 --scan-iterations=3
 *          --keep (leave the data directory in place and print it)
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep, setImmediate as yieldToLoop } from 'node:timers/promises';
import { configOf } from '../lib/config/load.ts';
import { createLogger } from '../lib/log/logger.ts';
import type { WorkflowDef } from '../lib/model/definitions.ts';
import type { TaskRecord, WorkflowRecord } from '../lib/model/execution.ts';
import { derivedId, generationAt, taskIdOf } from '../lib/model/ids.ts';
import { startLocalServer } from '../lib/runtime/local.ts';
import type { ExecutionStore } from '../lib/store/ports.ts';
import { Args } from './lib/args.ts';
import { type ChildServer, startChildServer } from './lib/child-server.ts';
import { expectStatus, HttpClient } from './lib/http-client.ts';
import { loadAverage } from './lib/machine.ts';
import { fmt, heading, percentile, table } from './lib/stats.ts';
import { registerWorkload, WORKFLOW_NAME } from './lib/workload.ts';

const args = new Args();
const runs = args.int('runs', 100_000, 1);
const types = args.int('types', 10, 1);
const hours = args.int('hours', 48, 1);
const batch = args.int('batch', 200, 1);
const iterations = args.int('iterations', 10, 1);
const scanIterations = args.int('scan-iterations', 3, 1);
const keep = args.bool('keep');

const AIM_START_MS = 3000;
const AIM_RSS_MB = 300;
const AIM_QUERY_MS = 200;
const AIM_SCAN_MS = 1000;

const names = Array.from({ length: types }, (_, k) => `bench_scale_${k}`);

interface Template {
  record: WorkflowRecord;
  rows: TaskRecord[];
  /** The template's definition under each of `names`, sharing its frozen task objects. */
  defs: WorkflowDef[];
}

/** Registers the workflows and runs the five-task workflow once; its record and rows, read back. */
async function makeTemplate(
  client: HttpClient,
  executions: ExecutionStore,
  engine: Engine,
): Promise<Template> {
  const taskTypes = await registerWorkload(client, 5);
  const def = JSON.parse(
    expectStatus(await client.get(`/api/metadata/workflow/${WORKFLOW_NAME}`), 'read the definition').body,
  ) as Record<string, unknown>;
  for (const name of names) {
    expectStatus(await client.post('/api/metadata/workflow', { ...def, name }), `register ${name}`);
  }
  const workflowId = await engine.starter.start({ name: WORKFLOW_NAME, input: { n: 0 } });
  const deadline = Date.now() + 10_000;
  for (;;) {
    for (const type of taskTypes) {
      for (const t of await engine.tasks.poll(type, { count: 1, timeoutMs: 0, workerId: 'bench' })) {
        await engine.tasks.update({
          workflowInstanceId: t.workflowInstanceId,
          taskId: t.taskId,
          status: 'COMPLETED',
          outputData: { ref: 1 },
        });
      }
    }
    const record = await executions.getWorkflow(workflowId);
    if (record?.status === 'COMPLETED') {
      const rows = await executions.listTasks(workflowId);
      if (rows.length !== 5 || record.tasks.length !== 5) {
        throw new Error(
          `the template run has ${rows.length} rows, ${record.tasks.length} tasks (5 expected)`,
        );
      }
      await executions.removeWorkflow(workflowId);
      const source = record.workflowDefinition;
      const defs = names.map((name) => Object.freeze({ ...source, name }) as WorkflowDef);
      return { record, rows, defs };
    }
    if (Date.now() > deadline) throw new Error(`the template run did not complete: ${record?.status}`);
    await sleep(5);
  }
}

type Engine = Awaited<ReturnType<typeof startLocalServer>>['services']['engine'];

/** Run `i`: the template under its own id, task ids, name, input, times and (one in 20) failure. */
function runOf(template: Template, i: number, first: number, step: number) {
  const { record: base, rows: baseRows } = template;
  const createTime = first + Math.round(i * step);
  const delta = createTime - base.createTime;
  const shift = (t: number | undefined) => (t === undefined || t === 0 ? t : t + delta);
  const workflowId = derivedId('bench-scale', i);
  const generation = generationAt(createTime);
  const name = names[i % types] as string;
  const failed = i % 21 === 20;
  const input = { n: i, orderId: `order-${i}` };
  const lastSeq = Math.max(...baseRows.map((r) => r.seq));
  const taskOf = (t: TaskRecord): TaskRecord => {
    const task: TaskRecord = {
      ...t,
      taskId: taskIdOf({ workflowId, generation, epoch: base.epoch }, t.referenceTaskName, t.retryCount),
      workflowInstanceId: workflowId,
      workflowType: name,
      scheduledTime: shift(t.scheduledTime) as number,
      startTime: shift(t.startTime) as number,
      endTime: shift(t.endTime) as number,
      updateTime: shift(t.updateTime) as number,
      firstScheduledTime: shift(t.firstScheduledTime) as number,
    };
    if (t.seq === 1) task.inputData = { n: i };
    if (failed && t.seq === lastSeq) {
      task.status = 'FAILED';
      task.outputData = {};
      task.reasonForIncompletion = 'bench: the worker reported a failure';
    }
    return task;
  };
  const tasks = base.tasks.map(taskOf);
  const record: WorkflowRecord = {
    ...base,
    workflowId,
    workflowName: name,
    workflowDefinition: template.defs[i % types] as WorkflowDef,
    generation,
    input,
    createTime,
    updateTime: shift(base.updateTime) as number,
    endTime: shift(base.endTime) as number,
    wakeArmedAt: shift(base.wakeArmedAt),
    expiresAt: shift(base.expiresAt),
    tasks,
  };
  if (record.wakeArmedAt === undefined) delete record.wakeArmedAt;
  if (record.expiresAt === undefined) delete record.expiresAt;
  const last = tasks.find((t) => t.seq === lastSeq) as TaskRecord;
  if (failed) {
    record.status = 'FAILED';
    record.output = {};
    record.reasonForIncompletion = last.reasonForIncompletion;
    record.failedReferenceTaskNames = [last.referenceTaskName];
    record.failedTaskNames = [last.taskDefName];
    record.failedTaskId = last.taskId;
  }
  return { record, rows: baseRows.map(taskOf) };
}

/** Seeds the directory; answers the seeding time (ms) and when the newest run was created. */
async function seed(dir: string): Promise<{ ms: number; newest: number }> {
  const server = await startLocalServer(
    configOf({
      'service.store': 'embedded',
      'service.local.data-dir': dir,
      'service.server.port': 0,
      'service.instance-id': 'bench-seed',
    }),
    { logger: createLogger({ level: 'warn', format: 'text' }) },
  );
  const client = new HttpClient(server.url, 4);
  try {
    const executions = server.services.stores.executions;
    const template = await makeTemplate(client, executions, server.services.engine);
    const started = performance.now();
    const newest = Date.now() - 60_000;
    const step = (hours * 3_600_000) / runs;
    const first = newest - Math.round((runs - 1) * step);
    let reported = 0;
    for (let i = 0; i < runs; i += batch) {
      const calls: Promise<unknown>[] = [];
      for (let k = i; k < Math.min(runs, i + batch); k++) {
        const { record, rows } = runOf(template, k, first, step);
        calls.push(executions.createWorkflow(record), executions.createTasks(rows));
      }
      await Promise.all(calls);
      // Lets the log's writes reach LevelDB (a timer) between batches.
      await yieldToLoop();
      const done = Math.min(runs, i + batch);
      if (done - reported >= runs / 5 || done === runs) {
        reported = done;
        const seconds = (performance.now() - started) / 1000;
        console.log(
          `  seeded ${done} runs in ${fmt(seconds, 1)} s (RSS ${fmt(process.memoryUsage.rss() / 2 ** 20, 0)} MB)`,
        );
      }
    }
    return { ms: performance.now() - started, newest };
  } finally {
    client.close();
    await server.close();
  }
}

function bytesUnder(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, name) => sum + bytesUnder(join(path, name)), 0);
}

interface Started {
  server: ChildServer;
  client: HttpClient;
  /** Spawn to the listening line, and to the first 200 of GET /health. */
  listeningMs: number;
  healthMs: number;
}

async function startOn(dir: string): Promise<Started> {
  const server = await startChildServer({ env: { SERVICE_STORE: 'embedded', SERVICE_LOCAL_DATA_DIR: dir } });
  const client = new HttpClient(server.url, 2);
  for (;;) {
    const answer = await client.get('/health').catch(() => undefined);
    if (answer?.status === 200) break;
    await sleep(2);
  }
  const healthMs = performance.now() - server.spawnedAt;
  return { server, client, listeningMs: server.listeningAt - server.spawnedAt, healthMs };
}

interface Query {
  name: string;
  params: Record<string, string>;
  aim: number;
  scan?: boolean;
}

function queriesAt(now: number, mid: number): Query[] {
  const page = { start: '0', size: '15', sort: 'startTime:DESC' };
  return [
    { name: 'UI first page (no filter)', params: { ...page, size: '25', freeText: '*' }, aim: AIM_QUERY_MS },
    {
      name: 'last hour, all types',
      params: { ...page, freeText: '*', query: `startTime>${now - 3_600_000}` },
      aim: AIM_QUERY_MS,
    },
    {
      name: 'last 24 h, all types',
      params: { ...page, freeText: '*', query: `startTime>${now - 86_400_000}` },
      aim: AIM_QUERY_MS,
    },
    {
      name: 'type + status',
      params: {
        ...page,
        freeText: '*',
        query: `workflowType = "${names[3 % types]}" AND status IN (COMPLETED)`,
      },
      aim: AIM_QUERY_MS,
    },
    {
      name: 'type + FAILED, last 24 h',
      params: {
        ...page,
        freeText: '*',
        query: `workflowType = "${names[3 % types]}" AND status IN (FAILED) AND startTime>${now - 86_400_000}`,
      },
      aim: AIM_QUERY_MS,
    },
    {
      name: 'free text (one run)',
      params: { ...page, freeText: `order-${mid}` },
      aim: AIM_SCAN_MS,
      scan: true,
    },
  ];
}

async function search(client: HttpClient, query: Query) {
  const path = `/api/workflow/search?${new URLSearchParams(query.params)}`;
  const once = async () => {
    const started = performance.now();
    const answer = expectStatus(await client.get(path), query.name);
    const ms = performance.now() - started;
    return { ms, hits: (JSON.parse(answer.body) as { totalHits: number }).totalHits };
  };
  await once();
  const ms: number[] = [];
  let hits = 0;
  for (let i = 0; i < (query.scan ? scanIterations : iterations); i++) {
    const result = await once();
    ms.push(result.ms);
    hits = result.hits;
  }
  return { ms, hits };
}

const mb = (value: number | undefined) => (value === undefined ? '-' : fmt(value, 0));

console.log(heading(`embedded store at scale: ${runs} runs of 5 SIMPLE tasks; load ${loadAverage()}`));
const dataDir = mkdtempSync(join(tmpdir(), 'bench-scale-'));
const emptyDir = mkdtempSync(join(tmpdir(), 'bench-scale-empty-'));
try {
  console.log(`seeding ${dataDir} (${types} workflow names over ${hours} h, ${batch} runs at a time)`);
  const seeded = await seed(dataDir);
  const diskMb = bytesUnder(dataDir) / 2 ** 20;
  console.log(`seeded in ${fmt(seeded.ms / 1000, 1)} s; ${fmt(diskMb, 0)} MB on disk`);

  const empty = await startOn(emptyDir);
  const emptyRss = empty.server.rssMb();
  empty.client.close();
  await empty.server.stop();

  const full = await startOn(dataDir);
  const rows: string[][] = [];
  const queryRows: string[][] = [];
  let rssAfterStart: number | undefined;
  /** After the indexed queries, and after the free text scan (which reads every record). */
  let rssAfterIndexed: number | undefined;
  let rssAfterScan: number | undefined;
  let peakRss: number | undefined;
  try {
    rssAfterStart = full.server.rssMb();
    console.log(`server up in ${fmt(full.healthMs, 0)} ms (RSS ${mb(rssAfterStart)} MB); searching`);
    for (const query of queriesAt(Date.now(), Math.floor(runs / 2))) {
      const { ms, hits } = await search(full.client, query);
      queryRows.push([
        query.name,
        String(hits),
        String(ms.length),
        fmt(percentile(ms, 50), 1),
        fmt(percentile(ms, 99), 1),
        `<= ${query.aim}`,
        mb(full.server.rssMb()),
      ]);
      console.log(`  ${query.name}: p50 ${fmt(percentile(ms, 50), 1)} ms`);
      if (query.scan) rssAfterScan = full.server.rssMb();
      else rssAfterIndexed = full.server.rssMb();
    }
    peakRss = full.server.peakRssMb();
  } finally {
    full.client.close();
    await full.server.stop();
  }

  rows.push(
    ['runs stored (5 task rows each)', String(runs), ''],
    ['seeding time (s)', fmt(seeded.ms / 1000, 1), ''],
    ['store on disk (MB)', fmt(diskMb, 0), ''],
    ['start, empty store: spawn -> /health 200 (ms)', fmt(empty.healthMs, 0), ''],
    ['start, empty store: RSS (MB)', mb(emptyRss), ''],
    [`start, ${runs} runs: spawn -> listening (ms)`, fmt(full.listeningMs, 0), ''],
    [`start, ${runs} runs: spawn -> /health 200 (ms)`, fmt(full.healthMs, 0), `<= ${AIM_START_MS}`],
    ['RSS after start (MB)', mb(rssAfterStart), `<= ${AIM_RSS_MB}`],
    ['RSS after the indexed searches (MB)', mb(rssAfterIndexed), `<= ${AIM_RSS_MB}`],
    ['RSS after the free text scans (MB)', mb(rssAfterScan), `<= ${AIM_RSS_MB}`],
    ['peak RSS, VmHWM (MB)', mb(peakRss), ''],
  );
  console.log(`\n${table(['figure', 'value', 'aim'], rows)}`);
  console.log(
    `\n${table(['GET /api/workflow/search', 'totalHits', 'calls', 'p50 ms', 'p99 ms', 'aim p50 ms', 'RSS after MB'], queryRows)}`,
  );
} finally {
  rmSync(emptyDir, { recursive: true, force: true });
  if (keep) console.log(`data kept in ${dataDir}`);
  else rmSync(dataDir, { recursive: true, force: true });
}
