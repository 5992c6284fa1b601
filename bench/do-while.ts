/**
 * DO_WHILE cost benchmark (`npm run bench:loop`): a loop whose body is one INLINE task and one
 * SIMPLE task, run for 10 and for 1,000 iterations (`--iterations=10,1000`). A worker completes the
 * SIMPLE task of each iteration by calling the task service directly (no HTTP, so the CPU figures
 * are the engine's and the store's alone). For every iteration the benchmark measures the poll, the
 * update and the decide that follows (which ends the iteration, evaluates the condition and starts
 * the next one): store operations, modelled index writes, queue messages, CPU time of this process
 * (process.cpuUsage: server and worker are both here) and wall time. It prints the first ten
 * iterations beside the last ten. lib/engine/ARCHITECTURE.md: the 1,000th iteration must cost no more than
 * the 10th.
 *
 * Each loop runs twice on a fresh server: once metering item sizes (bytes and request units need a
 * JSON copy of every item, which costs CPU that grows with the items), once without, for CPU time.
 * Options: --iterations=10,1000 --warmup=30 (iterations of an unreported loop run first on each
 * server, for JIT).
 */
import { performance } from 'node:perf_hooks';
import type { ScriptEvaluator } from '../lib/engine/script/evaluator.ts';
import { defaultRegistry } from '../lib/engine/tasks/index.ts';
import { systemClock } from '../lib/model/clock.ts';
import { Args } from './lib/args.ts';
import { doWhileWorkflow, OWNER, ref, simpleTask } from './lib/definitions.ts';
import { type MeteredServer, startMeteredServer } from './lib/instrument.ts';
import { loadAverage } from './lib/machine.ts';
import { fmt, heading, mean, percentile, table } from './lib/stats.ts';
import { diffSnapshots, type MeterSnapshot, type Tally, totalOf } from './lib/tally.ts';

const WORKFLOW = 'bench_do_while';
const TASK_TYPE = 'bench_loop_task';
const WINDOW = 10;

const args = new Args();
const runs = args.intList('iterations', '10,1000');
const warmup = args.int('warmup', 30);

const definition = doWhileWorkflow(WORKFLOW, [
  {
    name: 'calc',
    taskReferenceName: 'calc',
    type: 'INLINE',
    inputParameters: {
      evaluatorType: 'graaljs',
      expression: '$.i * 2',
      i: ref('loop.output.iteration'),
    },
  },
  simpleTask(TASK_TYPE, 'work', { doubled: ref('calc.output.result') }),
]);

interface Iteration {
  ops: MeterSnapshot;
  total: Tally;
  cpuMs: number;
  wallMs: number;
  /** The run record after the iteration: JSON bytes and tasks in the decider's working set. */
  recordBytes: number;
  workingSet: number;
}

function requireLoopTypes(): void {
  // Only asks which types are registered: no script is evaluated here.
  const noScripts: ScriptEvaluator = {
    evaluate: () => Promise.reject(new Error('no scripts here')),
    close: () => Promise.resolve(),
  };
  const registry = defaultRegistry({ scripts: noScripts, clock: systemClock });
  const missing = ['DO_WHILE', 'INLINE'].filter((type) => !registry.has(type));
  if (missing.length > 0) {
    console.error(
      `Cannot run: task type(s) ${missing.join(' and ')} not registered in lib/engine/tasks/index.ts yet. ` +
        'This benchmark needs DO_WHILE and INLINE; no figures were produced.',
    );
    process.exit(2);
  }
}

/**
 * Runs one loop of `iterations` on a fresh metered server and measures each iteration. A warm-up
 * loop runs on the same server first, so the early iterations do not pay for JIT compilation (of
 * the engine and of the QuickJS sandbox).
 */
async function runLoop(iterations: number, sizes: boolean): Promise<Iteration[]> {
  const metered: MeteredServer = await startMeteredServer({ sizes });
  const { server, idle } = metered;
  const { metadata } = server.services;
  try {
    await metadata.registerTaskDefs([{ name: TASK_TYPE, retryCount: 0, ownerEmail: OWNER }]);
    await metadata.registerWorkflowDef(definition, true);
    if (warmup > 0) await loop(metered, warmup);
    await idle();
    return await loop(metered, iterations);
  } finally {
    await server.close();
  }
}

async function loop(metered: MeteredServer, iterations: number): Promise<Iteration[]> {
  const { server, meter, raw, idle } = metered;
  const { engine } = server.services;
  const workflowId = await engine.starter.start({ name: WORKFLOW, input: { iterations } });
  await idle();
  const out: Iteration[] = [];
  for (let i = 1; i <= iterations; i++) {
    await idle();
    const before = meter.snapshot();
    const cpu = process.cpuUsage();
    const t0 = performance.now();
    const [task] = await engine.tasks.poll(TASK_TYPE, { workerId: 'bench', count: 1, timeoutMs: 0 });
    if (!task) throw new Error(`iteration ${i}: no ${TASK_TYPE} task to poll`);
    if (task.referenceTaskName !== `work__${i}`) {
      throw new Error(`iteration ${i}: polled ${task.referenceTaskName}, expected work__${i}`);
    }
    await engine.tasks.update({
      workflowInstanceId: workflowId,
      taskId: task.taskId,
      status: 'COMPLETED',
      outputData: { done: i },
    });
    await idle();
    const used = process.cpuUsage(cpu);
    const wallMs = performance.now() - t0;
    const ops = diffSnapshots(meter.snapshot(), before);
    const record = await raw.executions.getWorkflow(workflowId);
    out.push({
      ops,
      total: totalOf(ops),
      cpuMs: (used.user + used.system) / 1000,
      wallMs,
      recordBytes: record ? Buffer.byteLength(JSON.stringify(record)) : 0,
      workingSet: record?.tasks.length ?? 0,
    });
  }
  const run = await raw.executions.getWorkflow(workflowId);
  if (run?.status !== 'COMPLETED') {
    throw new Error(`the loop run ended ${run?.status ?? 'missing'}: ${run?.reasonForIncompletion ?? ''}`);
  }
  if (run.output.iterations !== iterations) {
    throw new Error(`the loop ran ${JSON.stringify(run.output.iterations)} iterations, not ${iterations}`);
  }
  return out;
}

function describe(label: string, slice: Iteration[], sized: Iteration[]): string[] {
  const sum = (f: (it: Iteration) => number, of: Iteration[]) => mean(of.map(f));
  const cpu = slice.map((it) => it.cpuMs);
  const wall = slice.map((it) => it.wallMs);
  const m = (f: (t: MeterSnapshot['messages']) => number) => sum((it) => f(it.ops.messages), sized);
  return [
    label,
    fmt(
      sum((it) => it.total.reads, sized),
      1,
    ),
    fmt(
      sum((it) => it.total.writes, sized),
      1,
    ),
    fmt(
      sum((it) => it.total.indexWrites, sized),
      1,
    ),
    fmt(
      sum((it) => it.total.readUnits, sized),
      1,
    ),
    fmt(
      sum((it) => it.total.writeUnits, sized),
      1,
    ),
    fmt(
      sum((it) => it.total.bytesWritten, sized),
      0,
    ),
    fmt(
      m((x) => x.decisionRequests + x.timerMessages + x.taskQueuePushes),
      1,
    ),
    fmt(
      m((x) => x.decides),
      1,
    ),
    fmt(mean(cpu), 3),
    fmt(percentile(cpu, 50), 3),
    fmt(percentile(wall, 50), 3),
    fmt(
      sum((it) => it.recordBytes, slice),
      0,
    ),
    fmt(
      sum((it) => it.workingSet, slice),
      1,
    ),
  ];
}

async function main(): Promise<void> {
  requireLoopTypes();
  console.log(heading('DO_WHILE: cost per iteration (body: one INLINE task, one SIMPLE task)'));
  console.log(
    [
      'One iteration = the worker polls the SIMPLE task, completes it, and the decide that follows runs',
      '(it ends the iteration, evaluates loopCondition, runs the next INLINE task and schedules the next',
      'SIMPLE task; after the last iteration it completes the loop and the run). Server and worker run',
      'in this process; the worker calls the task service directly. CPU = process.cpuUsage (user+sys).',
      'reads/writes as in bench/README.md; index writes, RCU/WCU and bytes are modelled (DynamoDB).',
      `Load average at start: ${loadAverage()}`,
    ].join('\n'),
  );
  const verdicts: string[] = [];
  for (const iterations of runs) {
    const sized = await runLoop(iterations, true);
    const timed = await runLoop(iterations, false);
    const early = (xs: Iteration[]) => xs.slice(0, WINDOW);
    const late = (xs: Iteration[]) => xs.slice(-WINDOW);
    const lateFrom = Math.max(1, iterations - WINDOW + 1);
    console.log(`\n${iterations} iterations (means per iteration over each window, CPU also as median):`);
    console.log(
      table(
        [
          'iterations',
          'reads',
          'writes',
          'idx wr',
          'RCU',
          'WCU',
          'bytes wr',
          'q msgs',
          'decides',
          'CPU ms',
          'CPU p50',
          'wall p50',
          'record B',
          'work set',
        ],
        [
          describe(`early 1-${Math.min(WINDOW, iterations)}`, early(timed), early(sized)),
          describe(`late ${lateFrom}-${iterations}`, late(timed), late(sized)),
          describe(
            `late w/o last (${Math.max(1, lateFrom - 1)}-${iterations - 1})`,
            timed.slice(-WINDOW - 1, -1),
            sized.slice(-WINDOW - 1, -1),
          ),
        ],
      ),
    );
    const at = (n: number) => sized[n - 1] as Iteration;
    const ops = (it: Iteration) =>
      `${it.total.reads} reads, ${it.total.writes} writes, ${it.total.indexWrites} index writes, ${it.total.bytesWritten} bytes written`;
    const cpuOf = (xs: Iteration[]) => xs.map((it) => it.cpuMs);
    const tenth = Math.min(WINDOW, iterations);
    verdicts.push(`${iterations} iterations:`);
    if (tenth < iterations - 1) verdicts.push(`  iteration ${tenth}: ${ops(at(tenth))}`);
    if (iterations > 1) verdicts.push(`  iteration ${iterations - 1}: ${ops(at(iterations - 1))}`);
    verdicts.push(`  iteration ${iterations} (the last; it also completes the run): ${ops(at(iterations))}`);
    verdicts.push(
      `  CPU, last ${WINDOW} / first ${WINDOW}: ${fmt(mean(cpuOf(late(timed))) / mean(cpuOf(early(timed))), 2)}x (means), ` +
        `${fmt(percentile(cpuOf(late(timed)), 50) / percentile(cpuOf(early(timed)), 50), 2)}x (medians)`,
    );
  }
  console.log('\nSingle iterations (sized pass) and CPU late vs early (timed pass):');
  for (const line of verdicts) console.log(`  ${line}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
