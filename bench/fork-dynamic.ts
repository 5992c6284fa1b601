/**
 * FORK_JOIN_DYNAMIC cost benchmark (`npm run bench:fork`): one run whose only work is a dynamic fork
 * of N INLINE branches (`forkTaskType: INLINE`, each `$.n * 2` in the QuickJS sandbox) and its JOIN,
 * for N = 10, 100 and 1,000 (`--branches=10,100,1000`). The whole run (start, its decides, the
 * JOIN, completion) is measured: store reads and writes (bench/README.md), modelled DynamoDB units
 * and bytes, decides, CPU time of this process (process.cpuUsage: the engine and the script worker
 * thread) and wall time, each divided by N. Aim (issue 13): the per-branch cost at 1,000 is at most
 * 1.2 times the cost at 10.
 *
 * `--stores=memory,embedded,dynamodb` (default all): over the memory stores, the embedded store, and over the
 * DynamoDB adapters on an in-process, in-memory dynalite (whose own CPU is then part of the figure).
 * `--branch-type=SIMPLE`: worker branches instead, all open at once: workers poll them in batches
 * of 100 and complete each wave of 100 concurrently; polls and updates are part of the run's cost.
 * `--branch-type=SUB_WORKFLOW`: each branch a child run of one worker task, worked the same way; the
 * children's starts, decides and notices to the parent are part of the run's cost.
 * `--output-bytes=1000`: each worker branch's output carries that much random (incompressible) text.
 *
 * Each size runs `--repeats` times (median reported) on a server that first ran `--warmup` forks of
 * 100 branches, for JIT. Sizes are metered in a separate pass (item sizes need a JSON copy of every
 * item, which costs CPU of its own).
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Args } from './lib/args.ts';
import { ref } from './lib/definitions.ts';
import { type MeteredServer, startMeteredServer } from './lib/instrument.ts';
import { loadAverage } from './lib/machine.ts';
import { fmt, heading, percentile, table } from './lib/stats.ts';
import { diffSnapshots, totalOf } from './lib/tally.ts';

const WORKFLOW = 'bench_fork_dynamic';

const args = new Args();
const sizes = args.intList('branches', '10,100,1000');
const repeats = args.int('repeats', 5);
const warmup = args.int('warmup', 5);
/** Bytes of incompressible text each worker branch adds to its output (`--output-bytes`, 0: none). */
const outputBytes = args.int('output-bytes', 0);
const stores = args
  .string('stores', 'memory,embedded,dynamodb')
  .split(',')
  .map((s) => s.trim());
if (stores.some((s) => s !== 'memory' && s !== 'dynamodb' && s !== 'embedded'))
  throw new Error('--stores must list memory, embedded and/or dynamodb');
const branchType = args.string('branch-type', 'INLINE');
if (branchType !== 'INLINE' && branchType !== 'SIMPLE' && branchType !== 'SUB_WORKFLOW')
  throw new Error('--branch-type must be INLINE, SIMPLE or SUB_WORKFLOW');
const WORKER_TYPE = 'bench_fork_worker';
const CHILD = 'bench_fork_child';

/** The child run of a SUB_WORKFLOW branch: its one worker task, whose output is the child's. */
const childDefinition = {
  name: CHILD,
  version: 1,
  schemaVersion: 2,
  ownerEmail: 'bench@example.com',
  tasks: [
    {
      name: WORKER_TYPE,
      taskReferenceName: 'work',
      type: 'SIMPLE',
      inputParameters: { n: ref('workflow.input.n') },
    },
  ],
  outputParameters: { doubled: ref('work.output.doubled') },
};

const FAN_INPUT: Record<string, Record<string, unknown>> = {
  INLINE: { forkTaskType: 'INLINE', forkTaskName: 'double', forkTaskInputs: ref('workflow.input.items') },
  SIMPLE: { forkTaskName: WORKER_TYPE, forkTaskInputs: ref('workflow.input.items') },
  SUB_WORKFLOW: { forkTaskWorkflow: CHILD, forkTaskInputs: ref('workflow.input.items') },
};

const definition = {
  name: WORKFLOW,
  version: 1,
  schemaVersion: 2,
  ownerEmail: 'bench@example.com',
  tasks: [
    {
      name: 'fan',
      taskReferenceName: 'fan',
      type: 'FORK_JOIN_DYNAMIC',
      inputParameters: FAN_INPUT[branchType],
    },
    { name: 'gather', taskReferenceName: 'gather', type: 'JOIN' },
  ],
  outputParameters: { last: ref('gather.output') },
};

const itemsOf = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    branchType === 'INLINE' ? { n: i, evaluatorType: 'graaljs', expression: '$.n * 2' } : { n: i },
  );

/** Workers: poll every open branch (batches of 100), then complete them in concurrent waves of 100. */
async function work(metered: MeteredServer): Promise<void> {
  const { tasks } = metered.server.services.engine;
  const polled = [];
  for (;;) {
    const batch = await tasks.poll(WORKER_TYPE, { workerId: 'bench', count: 100, timeoutMs: 0 });
    if (batch.length === 0) break;
    polled.push(...batch);
  }
  for (let i = 0; i < polled.length; i += 100) {
    await Promise.all(
      polled.slice(i, i + 100).map((task) =>
        tasks.update({
          workflowInstanceId: task.workflowInstanceId,
          taskId: task.taskId,
          status: 'COMPLETED',
          outputData: {
            doubled: Number(task.inputData.n) * 2,
            ...(outputBytes > 0
              ? { note: randomBytes(Math.ceil((outputBytes * 3) / 4)).toString('base64') }
              : {}),
          },
        }),
      ),
    );
    await metered.idle();
  }
}

interface Measure {
  reads: number;
  writes: number;
  readUnits: number;
  writeUnits: number;
  bytesWritten: number;
  decides: number;
  cpuMs: number;
  wallMs: number;
}

async function runFork(metered: MeteredServer, n: number): Promise<Measure> {
  const { server, meter, raw, idle } = metered;
  await idle();
  const before = meter.snapshot();
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const id = await server.services.engine.starter.start({ name: WORKFLOW, input: { items: itemsOf(n) } });
  await idle();
  if (branchType !== 'INLINE') await work(metered);
  // A decide that failed (logged) is tried again a second later: wait for that too, a while.
  for (let i = 0; i < 600 && (await raw.executions.getWorkflow(id))?.status === 'RUNNING'; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    await idle();
  }
  const used = process.cpuUsage(cpu);
  const wallMs = performance.now() - t0;
  const ops = diffSnapshots(meter.snapshot(), before);
  const run = await raw.executions.getWorkflow(id);
  if (run?.status !== 'COMPLETED')
    throw new Error(`the ${n}-branch run ended ${run?.status}: ${run?.reasonForIncompletion}`);
  const total = totalOf(ops);
  return {
    reads: total.reads,
    writes: total.writes,
    readUnits: total.readUnits,
    writeUnits: total.writeUnits,
    bytesWritten: total.bytesWritten,
    decides: ops.messages.decides,
    cpuMs: (used.user + used.system) / 1000,
    wallMs,
  };
}

async function measure(store: Store, n: number, sized: boolean): Promise<Measure[]> {
  const metered = await startMeteredServer({ sizes: sized, store });
  try {
    await metered.server.services.metadata.registerWorkflowDef(childDefinition, true);
    await metered.server.services.metadata.registerWorkflowDef(definition, true);
    for (let i = 0; i < warmup; i++) await runFork(metered, 100);
    const out: Measure[] = [];
    for (let i = 0; i < repeats; i++) out.push(await runFork(metered, n));
    return out;
  } finally {
    await metered.close();
  }
}

type Store = 'memory' | 'embedded' | 'dynamodb';

const median = (xs: Measure[], f: (m: Measure) => number) => percentile(xs.map(f), 50);

async function main(): Promise<void> {
  console.log(heading(`FORK_JOIN_DYNAMIC: cost per branch (${branchType} branches, one JOIN)`));
  console.log(
    [
      branchType === 'INLINE'
        ? 'One run = start + every decide until the run completes: the FORK marker, N INLINE branches evaluated'
        : `One run = start + the polls and updates of N worker branches${branchType === 'SUB_WORKFLOW' ? ' (each in a child run)' : ''} + every decide until the run completes:`,
      'in the decide, the JOIN gathering N outputs. Figures are per branch (whole run / N), medians of',
      `${repeats} runs after ${warmup} warm-up forks of 100. CPU = process.cpuUsage (user+sys, all threads;`,
      'on dynamodb the in-process dynalite too).',
      `Load average at start: ${loadAverage()}`,
    ].join('\n'),
  );
  for (const store of stores as Store[]) await report(store);
}

async function report(store: Store): Promise<void> {
  console.log(`\n${store === 'dynamodb' ? 'dynamodb (DynamoDB adapters on in-process dynalite)' : store}`);
  const rows: string[][] = [];
  const perBranch = new Map<number, { cpu: number; reads: number; writes: number }>();
  for (const n of sizes) {
    const sizedRuns = await measure(store, n, true);
    const timed = await measure(store, n, false);
    const cpu = median(timed, (m) => m.cpuMs) / n;
    const reads = median(sizedRuns, (m) => m.reads) / n;
    const writes = median(sizedRuns, (m) => m.writes) / n;
    perBranch.set(n, { cpu, reads, writes });
    rows.push([
      String(n),
      fmt(reads, 3),
      fmt(writes, 3),
      fmt(median(sizedRuns, (m) => m.readUnits) / n, 2),
      fmt(median(sizedRuns, (m) => m.writeUnits) / n, 2),
      fmt(median(sizedRuns, (m) => m.bytesWritten) / n, 0),
      fmt(
        median(sizedRuns, (m) => m.decides),
        0,
      ),
      fmt(cpu, 3),
      fmt(median(timed, (m) => m.wallMs) / n, 3),
      fmt(
        median(timed, (m) => m.cpuMs),
        1,
      ),
    ]);
  }
  console.log(
    table(
      [
        'branches',
        'reads/br',
        'writes/br',
        'RCU/br',
        'WCU/br',
        'bytes wr/br',
        'decides',
        'CPU ms/br',
        'wall ms/br',
        'CPU ms run',
      ],
      rows,
    ),
  );
  const first = perBranch.get(sizes[0] as number);
  const last = perBranch.get(sizes.at(-1) as number);
  if (first && last && sizes.length > 1) {
    console.log(
      `\nPer-branch cost, ${sizes.at(-1)} vs ${sizes[0]} branches: CPU ${fmt(last.cpu / first.cpu, 2)}x, ` +
        `reads ${fmt(last.reads / first.reads, 2)}x, writes ${fmt(last.writes / first.writes, 2)}x (aim: at most 1.2x) [${store}]`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
