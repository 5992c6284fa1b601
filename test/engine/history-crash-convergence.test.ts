/**
 * Crash convergence of retry, restart and rerun (lib/workflows/operations): an operation that dies
 * before any one of its writes and is then asked again must end, once the run is worked to its
 * end, in the same state as if it had never died - no stray rows, no second child, the same
 * outputs. Decides requested while the operation runs are held until it returns (or dies), so the
 * fault lands in the operation's own writes; each held decide then runs, as its request would.
 * Also the refusal of a run that ended before its first task. Everything runs over the memory store
 * and over the embedded store (a fresh directory per drive, deleted after it).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ConflictError } from '../../lib/model/errors.ts';
import type { Stores } from '../../lib/store/ports.ts';
import { STORE_BACKENDS, type StoreBackend } from '../helpers/embedded.ts';
import { type EngineHarness, engineHarness } from '../helpers/engine.ts';
import { type FaultyStores, faultyStores, InjectedCrash } from '../helpers/faulty-stores.ts';
import { ref } from '../helpers/fixtures.ts';

const RUN_ID = 'history-run';

/** A harness over a backend's fresh stores; `close` stops it, then releases the stores. */
async function harnessOver(
  backend: StoreBackend,
  wrap: (stores: Stores) => Stores = (stores) => stores,
): Promise<{ h: EngineHarness; close(): Promise<void> }> {
  const { stores, cleanup } = await backend.open();
  try {
    const h = await engineHarness({ stores: wrap(stores) });
    return {
      h,
      async close() {
        try {
          await h.close();
        } finally {
          await cleanup();
        }
      },
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

interface Scenario {
  name: string;
  workflows: string[];
  define(h: EngineHarness): Promise<void>;
  /** Brings RUN_ID to the ended state the operation starts from. */
  before: ((h: EngineHarness) => Promise<unknown>)[];
  operation(h: EngineHarness): Promise<unknown>;
  /** Works the run to its end after the operation. */
  after: ((h: EngineHarness) => Promise<unknown>)[];
}

const seq = (h: EngineHarness) =>
  h.register({
    name: 'seq',
    tasks: ['a', 'b', 'c'].map((name, i, all) => ({
      name,
      taskReferenceName: name,
      retryCount: 0,
      inputParameters: { n: ref(i === 0 ? 'workflow.input.n' : `${all[i - 1]}.output.n`) },
    })),
    outputParameters: { n: ref('c.output.n') },
  });

const family = async (h: EngineHarness) => {
  await h.register({
    name: 'child',
    tasks: [
      {
        name: 'inner',
        taskReferenceName: 'inner',
        retryCount: 0,
        inputParameters: { n: ref('workflow.input.n') },
      },
    ],
    outputParameters: { n: ref('inner.output.n') },
  });
  await h.register({
    name: 'parent',
    tasks: [
      { name: 'pre', taskReferenceName: 'pre', retryCount: 0 },
      {
        name: 'child',
        taskReferenceName: 'sub',
        type: 'SUB_WORKFLOW',
        retryCount: 0,
        subWorkflowParam: { name: 'child', version: 1 },
        inputParameters: { n: ref('pre.output.n') },
      },
      { name: 'post', taskReferenceName: 'post', retryCount: 0, inputParameters: { n: ref('sub.output.n') } },
    ],
    outputParameters: { n: ref('post.output.n') },
  });
};

const startSeq = (h: EngineHarness) => h.start('seq', { n: 1 }, { workflowId: RUN_ID });
const startParent = (h: EngineHarness) => h.start('parent', {}, { workflowId: RUN_ID });
const ops = (h: EngineHarness) => h.services.engine.operations;

/** The task a rerun starts from, read once per drive: asked again, a client sends the same id. */
const chosen = new WeakMap<EngineHarness, string>();

async function taskIdOf(h: EngineHarness, workflowId: string, refName: string): Promise<string> {
  const known = chosen.get(h);
  if (known) return known;
  const task = await h.task(workflowId, refName);
  if (!task) throw new Error(`no ${refName} in ${workflowId}`);
  chosen.set(h, task.taskId);
  return task.taskId;
}

async function childOf(h: EngineHarness): Promise<string> {
  const sub = await h.task(RUN_ID, 'sub');
  if (!sub?.subWorkflowId) throw new Error('no child');
  return sub.subWorkflowId;
}

const scenarios: Scenario[] = [
  {
    name: 'retry of a run whose middle task failed',
    workflows: ['seq'],
    define: seq,
    before: [startSeq, (h) => h.work('a', { n: 2 }), (h) => h.work('b', {}, 'FAILED', 'boom')],
    operation: (h) => ops(h).retry(RUN_ID),
    after: [(h) => h.work('b', { n: 3 }), (h) => h.work('c', { n: 4 })],
  },
  {
    name: 'rerun from a middle task of a completed run, with a new task input',
    workflows: ['seq'],
    define: seq,
    before: [
      startSeq,
      (h) => h.work('a', { n: 2 }),
      (h) => h.work('b', { n: 3 }),
      (h) => h.work('c', { n: 4 }),
    ],
    operation: async (h) =>
      ops(h).rerun(RUN_ID, { reRunFromTaskId: await taskIdOf(h, RUN_ID, 'b'), taskInput: { n: 'x' } }),
    after: [(h) => h.work('b', { n: 5 }), (h) => h.work('c', { n: 6 })],
  },
  {
    name: 'restart of a failed run',
    workflows: ['seq'],
    define: seq,
    before: [startSeq, (h) => h.work('a', { n: 2 }), (h) => h.work('b', {}, 'FAILED', 'boom')],
    operation: (h) => ops(h).restart(RUN_ID),
    after: [(h) => h.work('a', { n: 7 }), (h) => h.work('b', { n: 8 }), (h) => h.work('c', { n: 9 })],
  },
  {
    name: 'retry of a parent resuming its failed child',
    workflows: ['parent', 'child'],
    define: family,
    before: [startParent, (h) => h.work('pre', { n: 1 }), (h) => h.work('inner', {}, 'FAILED', 'boom')],
    operation: (h) => ops(h).retry(RUN_ID, { resumeSubworkflowTasks: true }),
    after: [(h) => h.work('inner', { n: 2 }), (h) => h.work('post', { n: 3 })],
  },
  {
    name: 'rerun from a task inside the child',
    workflows: ['parent', 'child'],
    define: family,
    before: [startParent, (h) => h.work('pre', { n: 1 }), (h) => h.work('inner', {}, 'FAILED', 'boom')],
    operation: async (h) =>
      ops(h).rerun(RUN_ID, {
        reRunFromTaskId: chosen.get(h) ?? (await taskIdOf(h, await childOf(h), 'inner')),
      }),
    after: [(h) => h.work('inner', { n: 2 }), (h) => h.work('post', { n: 3 })],
  },
];

/**
 * Runs `operation` with decides held until it is over, calls `between`, then runs the held decides;
 * answers the error the operation threw, if any.
 */
async function withHeldDecides(
  h: EngineHarness,
  operation: () => Promise<unknown>,
  between: () => void = () => undefined,
): Promise<unknown> {
  const executor = h.services.engine.executor;
  const decide = executor.decide.bind(executor);
  const held: string[] = [];
  executor.decide = async (workflowId: string) => {
    held.push(workflowId);
  };
  let error: unknown;
  try {
    await operation();
  } catch (caught) {
    error = caught;
  } finally {
    executor.decide = decide;
  }
  between();
  await h.settle();
  for (const workflowId of held) await decide(workflowId);
  await h.settle();
  return error;
}

async function finalState(h: EngineHarness, scenario: Scenario): Promise<unknown> {
  const runs: unknown[] = [];
  for (const name of scenario.workflows) {
    for (const run of await h.stores.executions.findWorkflows({ name })) {
      const rows = await h.tasks(run.workflowId);
      runs.push({
        name,
        workflowId: run.workflowId,
        status: run.status,
        output: run.output,
        reasonForIncompletion: run.reasonForIncompletion,
        tasks: rows.map((t) => ({
          id: t.taskId,
          ref: t.referenceTaskName,
          status: t.status,
          retryCount: t.retryCount,
          input: t.inputData,
          output: t.outputData,
        })),
      });
    }
  }
  return { runs, queues: await h.stores.queue.sizes() };
}

/**
 * Drives a scenario, the operation failing before write `crashAt + 1` when given; the op's write
 * count. The caller closes what it answers; a drive that throws closes itself.
 */
async function drive(
  backend: StoreBackend,
  scenario: Scenario,
  crashAt?: number,
): Promise<{ h: EngineHarness; close(): Promise<void>; opWrites: number; crashed: boolean }> {
  let faulty: FaultyStores | undefined;
  const opened = await harnessOver(backend, (stores) => {
    faulty = faultyStores(stores);
    return faulty.stores;
  });
  try {
    if (!faulty) throw new Error('no faulty stores');
    return { ...opened, ...(await driveOn(opened.h, faulty, scenario, crashAt)) };
  } catch (error) {
    await opened.close();
    throw error;
  }
}

async function driveOn(
  h: EngineHarness,
  faulty: FaultyStores,
  scenario: Scenario,
  crashAt: number | undefined,
): Promise<{ opWrites: number; crashed: boolean }> {
  await scenario.define(h);
  for (const step of scenario.before) await step(h);
  faulty.resetCount();
  if (crashAt !== undefined) faulty.failAfter(crashAt);
  let crashed = false;
  let opWrites = 0;
  const error = await withHeldDecides(
    h,
    () => scenario.operation(h),
    () => {
      crashed = faulty.tripped;
      opWrites = faulty.writes;
      faulty.disarm();
    },
  );
  if (error !== undefined && !(error instanceof InjectedCrash)) throw error;
  if (crashAt !== undefined) {
    // Asked again: it must go through, unless the first attempt got all the way.
    const again = await withHeldDecides(h, () => scenario.operation(h));
    if (again !== undefined && !(again instanceof ConflictError && !crashed)) throw again;
  }
  for (const step of scenario.after) await step(h);
  await h.settle();
  return { opWrites, crashed };
}

describe.each(STORE_BACKENDS)(
  'retry, restart and rerun converge when they crash before any write and are asked again ($name)',
  (backend) => {
    let open: { close(): Promise<void> } | undefined;
    afterEach(async () => {
      await open?.close();
      open = undefined;
    });

    for (const scenario of scenarios) {
      it(`for ${scenario.name}`, async () => {
        const baseline = await drive(backend, scenario);
        open = baseline;
        const expected = await finalState(baseline.h, scenario);
        expect(JSON.stringify(expected)).toContain('"COMPLETED"');
        const writes = baseline.opWrites;
        expect(writes).toBeGreaterThan(0);
        await baseline.close();
        open = undefined;

        const mismatches: string[] = [];
        for (let k = 0; k <= writes; k++) {
          const label = `failing before write ${k + 1} of ${writes}`;
          try {
            const crashed = await drive(backend, scenario, k);
            open = crashed;
            if (k < writes && !crashed.crashed) mismatches.push(`${label}: the fault never fired`);
            const actual = await finalState(crashed.h, scenario);
            if (JSON.stringify(actual) !== JSON.stringify(expected)) {
              mismatches.push(`${label}: ${JSON.stringify(actual)}`);
            }
          } catch (error) {
            mismatches.push(`${label}: ${error instanceof Error ? error.message : String(error)}`);
          } finally {
            await open?.close();
            open = undefined;
          }
        }
        expect(mismatches).toEqual([]);
      });
    }
  },
);

describe.each(STORE_BACKENDS)('retry of a run that ended before its first task ($name)', (backend) => {
  it('answers a conflict saying it has not started', async () => {
    const { h, close } = await harnessOver(backend);
    try {
      await seq(h);
      await h.start('seq', { n: 1 }, { workflowId: RUN_ID });
      const run = await h.run(RUN_ID);
      // A run terminated before its first decide: ended, with no task at all.
      await h.stores.executions.commitWorkflow(
        { ...run, status: 'TERMINATED', tasks: [], rev: run.rev + 1 },
        run.rev,
      );
      await expect(ops(h).retry(RUN_ID)).rejects.toThrow(new ConflictError('Workflow has not started yet'));
    } finally {
      await close();
    }
  });
});
