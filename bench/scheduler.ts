/**
 * Scheduler benchmark (`npm run bench:scheduler`), issue 11:
 *
 * 1. One tick with --schedules active schedules (default 10,000; each fires once a minute, at a
 *    second spread over the minute), on the memory store and on DynamoDB (dynalite in process):
 *    CPU time and wall time of the tick, store reads (port calls and items read; on DynamoDB also
 *    the requests sent), writes and fires sent. The queue only counts; nothing starts.
 * 2. Fire-time error on the local server (in process, memory store, real clock): the schedules are
 *    created over HTTP, then for --seconds of fires each fire's error is its run's createTime minus
 *    its scheduled second, read back from the execution records. Aim: p99 under 1 s.
 *
 * Options: --schedules=10000 --seconds=60 --stores=memory,dynamodb --fire-pass=true
 */
import { performance } from 'node:perf_hooks';
import { configOf } from '../lib/config/load.ts';
import { silentLogger } from '../lib/log/logger.ts';
import { ManualClock } from '../lib/model/clock.ts';
import { startLocalServer } from '../lib/runtime/local.ts';
import { ScheduleDispatcher } from '../lib/scheduler/dispatcher.ts';
import type { ScheduleRecord } from '../lib/scheduler/model.ts';
import { nextRunTimeOf } from '../lib/scheduler/plan.ts';
import type { ScheduleStore } from '../lib/scheduler/ports.ts';
import { DynamoScheduleStore } from '../lib/scheduler/store/dynamodb.ts';
import { MemoryScheduleStore } from '../lib/scheduler/store/memory.ts';
import { SCHEDULES_TABLE } from '../lib/scheduler/tables.ts';
import { startEmbeddedDynamo } from '../lib/store/dynamodb/embedded.ts';
import { createTables, documentClient } from '../lib/store/dynamodb/index.ts';
import { Args } from './lib/args.ts';
import { loadAverage } from './lib/machine.ts';
import { fmt, forEachLimit, heading, percentile, table } from './lib/stats.ts';

const args = new Args();
const count = args.int('schedules', 10_000, 1);
const seconds = args.int('seconds', 60, 1);
const stores = args
  .string('stores', 'memory,dynamodb')
  .split(',')
  .map((s) => s.trim());
const firePass = args.string('fire-pass', 'true') !== 'false';

interface Counts {
  calls: Record<string, number>;
  items: number;
}

/** The store with every port call counted, and the records reads returned. */
function counted(store: ScheduleStore, counts: Counts): ScheduleStore {
  return new Proxy(store, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return async (...a: unknown[]) => {
        counts.calls[String(prop)] = (counts.calls[String(prop)] ?? 0) + 1;
        const result = await value.apply(target, a);
        if (Array.isArray(result)) counts.items += result.length;
        else if (result !== undefined && String(prop) !== 'state') counts.items += 1;
        return result;
      };
    },
  });
}

function schedule(i: number, now: number): ScheduleRecord {
  const record: ScheduleRecord = {
    name: `bench_schedule_${String(i).padStart(6, '0')}`,
    cronExpression: `${i % 60} * * * * *`,
    startWorkflowRequest: { name: 'bench_scheduled', input: { i } },
    runCatchupScheduleInstances: false,
    paused: false,
    rev: 1,
    createTime: now,
  };
  return { ...record, nextDispatchTime: nextRunTimeOf(record, now) };
}

async function tickPass(kind: string): Promise<string[][]> {
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  let store: ScheduleStore;
  const requests: Record<string, number> = {};
  let close = async () => {};
  if (kind === 'memory') store = new MemoryScheduleStore();
  else {
    const embedded = await startEmbeddedDynamo();
    const client = embedded.client();
    const tables = { schedules: `bench-${Date.now()}-schedules` };
    await createTables(client, tables, [SCHEDULES_TABLE]);
    const doc = documentClient(client);
    doc.middlewareStack.add(
      (next, context) => async (input) => {
        const name = String(context.commandName ?? 'command');
        requests[name] = (requests[name] ?? 0) + 1;
        return next(input);
      },
      { step: 'initialize', name: 'benchCounter' },
    );
    store = new DynamoScheduleStore(doc, tables.schedules);
    close = async () => {
      client.destroy();
      await embedded.close();
    };
  }
  await forEachLimit(
    Array.from({ length: count }, (_, i) => i),
    32,
    (i) => store.save(schedule(i, clock.now()), undefined),
  );
  for (const key of Object.keys(requests)) delete requests[key];
  const rows: string[][] = [];
  for (const label of ['first tick', 'next tick (+60 s)']) {
    if (label !== 'first tick') clock.advance(60_000);
    const counts: Counts = { calls: {}, items: 0 };
    let sent = 0;
    const dispatcher = new ScheduleDispatcher({
      schedules: counted(store, counts),
      queue: { send: async () => void sent++ },
      starter: {
        parseRequest: () => ({ name: 'x' }),
        startRun: async () => ({ workflowId: 'x', created: true }),
      },
      clock,
      logger: silentLogger,
    });
    for (const key of Object.keys(requests)) delete requests[key];
    const cpu = process.cpuUsage();
    const started = performance.now();
    const result = await dispatcher.tick(clock.now());
    const wall = performance.now() - started;
    const used = process.cpuUsage(cpu);
    const reads = (counts.calls.due ?? 0) + (counts.calls.get ?? 0) + (counts.calls.state ?? 0);
    const dynamo = Object.entries(requests)
      .map(([k, v]) => `${k.replace('Command', '')} ${v}`)
      .join(', ');
    rows.push([
      `${kind}: ${label}`,
      String(result.schedules),
      String(sent),
      fmt((used.user + used.system) / 1000, 0),
      fmt(wall, 0),
      `${reads} (${counts.items} records)`,
      String(counts.calls.save ?? 0),
      dynamo || '-',
    ]);
  }
  await close();
  return rows;
}

async function firePassRun(): Promise<void> {
  const server = await startLocalServer(
    configOf({ 'service.store': 'memory', 'service.server.port': 0, 'service.log.level': 'warn' }),
    { logger: silentLogger },
  );
  try {
    const post = (path: string, body: unknown) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const def = {
      name: 'bench_scheduled',
      version: 1,
      schemaVersion: 2,
      tasks: [
        { name: 'noop', taskReferenceName: 'noop', type: 'SET_VARIABLE', inputParameters: { done: true } },
      ],
    };
    if ((await post('/api/metadata/workflow', def)).status !== 200) throw new Error('could not register');
    const created = performance.now();
    await forEachLimit(
      Array.from({ length: count }, (_, i) => i),
      16,
      async (i) => {
        const response = await post('/api/scheduler/schedules', {
          name: `bench_schedule_${i}`,
          cronExpression: `${i % 60} * * * * *`,
          startWorkflowRequest: { name: 'bench_scheduled', input: { i } },
        });
        if (response.status !== 200)
          throw new Error(`save answered ${response.status}: ${await response.text()}`);
      },
    );
    const createSeconds = (performance.now() - created) / 1000;
    const from = Math.ceil(Date.now() / 1000) * 1000 + 2000;
    const to = from + seconds * 1000;
    await new Promise((r) => setTimeout(r, to - Date.now() + 3000));
    const executions = await server.services.stores.schedules.recentExecutions(
      10 * count * (seconds / 60 + 2),
    );
    const window = executions.filter((e) => e.scheduledTime >= from && e.scheduledTime < to);
    const errors: number[] = [];
    for (const e of window) {
      if (e.state !== 'EXECUTED' || e.workflowId === undefined) continue;
      const run = await server.services.stores.executions.getWorkflow(e.workflowId);
      if (run) errors.push(run.createTime - e.scheduledTime);
    }
    const expected = count * (seconds / 60);
    console.log(heading(`fire-time error: ${count} schedules, ${seconds} s of fires, local server (memory)`));
    console.log(
      table(
        ['measure', 'value'],
        [
          ['schedules created over HTTP', `${count} in ${fmt(createSeconds, 1)} s`],
          ['fires expected in the window', fmt(expected, 0)],
          ['fires executed', String(errors.length)],
          [
            'fires failed / not done',
            `${window.filter((e) => e.state === 'FAILED').length} / ${window.filter((e) => e.state === 'POLLED').length}`,
          ],
          ['error p50 (ms)', fmt(percentile(errors, 50), 0)],
          ['error p99 (ms)', fmt(percentile(errors, 99), 0)],
          ['error max (ms)', fmt(Math.max(...errors), 0)],
          ['error min (ms)', fmt(Math.min(...errors), 0)],
        ],
      ),
    );
  } finally {
    await server.close();
  }
}

console.log(`scheduler benchmark: ${count} schedules; load average ${loadAverage()}`);
const rows: string[][] = [];
for (const kind of stores) rows.push(...(await tickPass(kind)));
console.log(heading(`one tick with ${count} active schedules (each fires once a minute)`));
console.log(
  table(
    [
      'store: tick',
      'schedules',
      'fires sent',
      'CPU ms',
      'wall ms',
      'store reads',
      'writes',
      'DynamoDB requests',
    ],
    rows,
  ),
);
if (firePass) await firePassRun();
