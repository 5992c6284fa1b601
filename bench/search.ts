/**
 * Search benchmark (`npm run bench:search`), issue 14: --executions stored runs (default 100,000)
 * over --types workflow types (20), on the memory store, the embedded store (LevelDB + log, in a
 * temporary directory, closed and opened again after loading so records are read from disk) and
 * the DynamoDB adapter (dynalite in process). Latency p50/p99 of SearchService queries (what the
 * routes run, without HTTP):
 *   indexed     workflowType=<t> AND status=COMPLETED, sort startTime:DESC, size 15
 *   time range  startTime in a 10% window, sort startTime:DESC, size 15 (all types; byStartDay)
 *   open range  startTime > the window's start, no upper bound: the UI's executions page query
 *               (all types; byStartDay up to tomorrow, "now" being just after the last run)
 *   typed range workflowType=<t> AND the same window
 *   free text   a term found in one run's input (unindexed: every record is read)
 * Runs are written straight to the store (createWorkflow; on DynamoDB BatchWriteItem), not through
 * the engine. Aims (issue 14, over 100,000 runs): UI default and type + status p50 <= 200 ms, free
 * text <= 1 s.
 *
 * Options: --executions=100000 --types=20 --iterations=20 --scan-iterations=3
 *          --stores=memory,embedded,dynamodb
 *          --only=<text> (only the queries whose name contains it)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { WorkflowRecord, WorkflowStatus } from '../lib/model/execution.ts';
import { WORKFLOW_FIELDS } from '../lib/search/evaluate.ts';
import { parseFreeText } from '../lib/search/free-text.ts';
import { planWorkflowSearch } from '../lib/search/planner.ts';
import { parseQuery } from '../lib/search/query-parser.ts';
import { parseSort, type SearchParams, SearchService } from '../lib/search/service.ts';
import { startEmbeddedDynamo } from '../lib/store/dynamodb/embedded.ts';
import { workflowItem } from '../lib/store/dynamodb/execution-items.ts';
import { DynamoExecutionStore } from '../lib/store/dynamodb/executions.ts';
import { createTables, documentClient } from '../lib/store/dynamodb/index.ts';
import { batchPut } from '../lib/store/dynamodb/paging.ts';
import { EXECUTIONS_TABLE } from '../lib/store/dynamodb/tables.ts';
import { EmbeddedDb } from '../lib/store/embedded/database.ts';
import { EmbeddedExecutionStore } from '../lib/store/embedded/executions.ts';
import { MemoryExecutionStore } from '../lib/store/memory/executions.ts';
import type { ExecutionStore } from '../lib/store/ports.ts';
import { Args } from './lib/args.ts';
import { loadAverage } from './lib/machine.ts';
import { fmt, heading, percentile, table } from './lib/stats.ts';

const args = new Args();
const executions = args.int('executions', 100_000, 1);
const types = args.int('types', 20, 1);
const iterations = args.int('iterations', 20, 1);
const scanIterations = args.int('scan-iterations', 3, 1);
const stores = args
  .string('stores', 'memory,embedded,dynamodb')
  .split(',')
  .map((s) => s.trim());

const T0 = 1_700_000_000_000;
const STATUSES: WorkflowStatus[] = ['COMPLETED', 'COMPLETED', 'COMPLETED', 'FAILED', 'RUNNING', 'TERMINATED'];

function runOf(i: number): WorkflowRecord {
  const name = `type_${i % types}`;
  const status = STATUSES[i % STATUSES.length] ?? 'COMPLETED';
  const ended = status !== 'RUNNING';
  return {
    workflowId: `run-${String(i).padStart(7, '0')}`,
    workflowName: name,
    workflowVersion: 1,
    status,
    createTime: T0 + i * 1000,
    updateTime: T0 + i * 1000 + 500,
    endTime: ended ? T0 + i * 1000 + 500 : 0,
    input: { orderId: `order-${i}`, customer: `c-${i % 997}` },
    output: ended ? { ok: true } : {},
    variables: {},
    correlationId: `corr-${i}`,
    priority: 0,
    taskToDomain: {},
    failedReferenceTaskNames: [],
    failedTaskNames: [],
    lastRetriedTime: 0,
    workflowDefinition: { name, version: 1, tasks: [] } as unknown as WorkflowRecord['workflowDefinition'],
    rev: 1,
    seq: 0,
    tasks: [],
    wakeAt: 0,
  };
}

async function load(kind: string): Promise<{ store: ExecutionStore; close: () => Promise<void> }> {
  if (kind === 'memory') {
    const store = new MemoryExecutionStore();
    for (let i = 0; i < executions; i++) await store.createWorkflow(runOf(i));
    return { store, close: async () => {} };
  }
  if (kind === 'embedded') return loadEmbedded();
  if (kind !== 'dynamodb') throw new Error(`--stores: unknown store '${kind}' (memory, embedded, dynamodb)`);
  const embedded = await startEmbeddedDynamo();
  const client = embedded.client();
  const tables = { executions: `bench-${Date.now()}-executions` };
  await createTables(client, tables, [EXECUTIONS_TABLE]);
  const doc = documentClient(client);
  const chunk = 500;
  const writers: Promise<void>[] = [];
  for (let i = 0; i < executions; i += chunk) {
    const items = Array.from({ length: Math.min(chunk, executions - i) }, (_, k) =>
      workflowItem(runOf(i + k)),
    );
    writers.push(batchPut(doc, tables.executions, items, 'bench load'));
    if (writers.length >= 8) await Promise.all(writers.splice(0));
  }
  await Promise.all(writers);
  return {
    store: new DynamoExecutionStore(doc, tables.executions),
    close: async () => {
      client.destroy();
      await embedded.close();
    },
  };
}

/**
 * The embedded store over a temporary directory: every run created through the port, made durable
 * every 1,000 runs (what the host's wrapper does after each call), the event loop let through so
 * the log's writes reach LevelDB; then closed and opened again, so the measured reads come from
 * LevelDB (and the heads from the reloaded table), not from the overlay of fresh writes.
 */
async function loadEmbedded(): Promise<{ store: ExecutionStore; close: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-search-embedded-'));
  const writing = await EmbeddedDb.open(dir);
  const writer = new EmbeddedExecutionStore(writing);
  for (let i = 0; i < executions; i++) {
    await writer.createWorkflow(runOf(i));
    if (i % 1000 === 999) {
      await writing.sync();
      await yieldToLoop();
    }
  }
  await writing.close();
  const started = performance.now();
  const db = await EmbeddedDb.open(dir);
  const store = new EmbeddedExecutionStore(db);
  console.log(`embedded: reopened in ${fmt(performance.now() - started, 0)} ms`);
  return {
    store,
    close: async () => {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function measure(search: SearchService, params: SearchParams, times: number) {
  const ms: number[] = [];
  let hits = 0;
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    const found = await search.workflows(params);
    ms.push(performance.now() - started);
    hits = found.totalHits;
  }
  return { ms, hits };
}

const from = T0 + Math.floor(executions * 0.45) * 1000;
const to = T0 + Math.floor(executions * 0.55) * 1000;
/** `aim`: the p50 bound in ms, where it sets one. */
const queries: { name: string; params: SearchParams; scan: boolean; aim?: number }[] = [
  {
    name: 'indexed: type + status',
    params: { start: 0, size: 15, sort: 'startTime:DESC', query: 'workflowType=type_3 AND status=COMPLETED' },
    scan: false,
    aim: 200,
  },
  {
    name: 'typed time range',
    params: {
      start: 0,
      size: 15,
      sort: 'startTime:DESC',
      query: `workflowType IN (type_3) AND startTime>${from} AND startTime<${to}`,
    },
    scan: false,
  },
  {
    name: 'time range, all types',
    params: {
      start: 0,
      size: 15,
      sort: 'startTime:DESC',
      freeText: '*',
      query: `startTime>${from} AND startTime<${to}`,
    },
    scan: false,
  },
  {
    name: 'open time range (UI default)',
    params: { start: 0, size: 15, sort: 'startTime:DESC', freeText: '*', query: `startTime>${from}` },
    scan: false,
    aim: 200,
  },
  {
    name: 'free text (unindexed)',
    params: { start: 0, size: 15, sort: 'startTime:DESC', freeText: `order-${Math.floor(executions / 2)}` },
    scan: true,
    aim: 1000,
  },
];

const only = args.string('only', '');
const chosen = queries.filter((q) => q.name.includes(only));

console.log(heading(`search: ${executions} runs, ${types} types; load ${loadAverage()}`));
const rows: string[][] = [];
for (const kind of stores) {
  const started = performance.now();
  const { store, close } = await load(kind);
  console.log(`${kind}: loaded in ${fmt((performance.now() - started) / 1000, 1)} s`);
  // "Now" is just after the last run, as it would be for the UI looking at recent runs.
  const now = T0 + executions * 1000 + 60_000;
  const search = new SearchService(store, undefined, { now: () => now });
  for (const q of chosen) {
    const { ms, hits } = await measure(
      search,
      q.params,
      q.scan && kind !== 'memory' ? scanIterations : iterations,
    );
    const plan = planWorkflowSearch(
      parseQuery(q.params.query),
      parseFreeText(q.params.freeText),
      parseSort(q.params.sort, WORKFLOW_FIELDS),
      now,
    );
    rows.push([
      kind,
      q.name,
      plan.index,
      String(hits),
      String(ms.length),
      fmt(percentile(ms, 50)),
      fmt(percentile(ms, 99)),
      q.aim === undefined ? '' : `<= ${q.aim}`,
    ]);
    console.log(`  ${q.name}: p50 ${fmt(percentile(ms, 50))} ms`);
  }
  await close();
}
console.log(table(['store', 'query', 'index', 'totalHits', 'runs', 'p50 ms', 'p99 ms', 'aim p50 ms'], rows));
