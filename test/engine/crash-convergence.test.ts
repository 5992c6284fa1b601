/**
 * Crash convergence (lib/engine/ARCHITECTURE.md, lib/engine/executor.ts): a decide that dies
 * after any of its writes and is then run again must end in the same state as if it had never
 * died - no duplicate task rows, no second child run, the same outputs.
 *
 * Each scenario is first driven without faults, recording how many store writes each decide made.
 * Then, for every decide and every write position in it (and once past its last write, which makes
 * the decide simply run twice), the scenario is driven again with that decide failing right before
 * that write; the failed decide is run again directly, the scenario goes on, and the final state
 * must equal the fault-free one.
 *
 * Every scenario runs over the memory store and over the embedded store (a fresh directory per
 * drive, deleted after it), so the embedded adapters must converge too.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { STORE_BACKENDS, type StoreBackend } from '../helpers/embedded.ts';
import { type EngineHarness, engineHarness } from '../helpers/engine.ts';
import { type FaultyStores, faultyStores, InjectedCrash } from '../helpers/faulty-stores.ts';
import { fork, join, ref } from '../helpers/fixtures.ts';

/** A fixed run id, so every id derived from it (tasks, children) is the same in every drive. */
const RUN_ID = 'crash-run';

interface Scenario {
  name: string;
  /** Every workflow definition whose runs belong to the scenario (the main one first). */
  workflows: string[];
  define(h: EngineHarness): Promise<void>;
  /** Actions, each followed by the decides it causes; the first one starts RUN_ID. */
  steps: ((h: EngineHarness) => Promise<unknown>)[];
  /** The worker queue sizes the fault-free drive ends with, when the scenario is about them. */
  queuesAfter?: Record<string, number>;
}

interface DecideRecord {
  workflowId: string;
  writes: string[];
}

/** Where to fail: before write `afterWrites + 1` of the decide numbered `decide` (0-based, in run order). */
interface CrashPlan {
  decide: number;
  afterWrites: number;
}

/**
 * An engine over fault-injecting stores whose decides run one at a time (so each one's writes can be
 * counted apart) and are numbered. The planned decide fails and is left failed, as a crashed process
 * leaves it; `recover` then runs it again, as the redelivered decide request would.
 */
class CrashRig {
  readonly decides: DecideRecord[] = [];
  failed: { workflowId: string; tripped: boolean; threw: boolean } | undefined;
  private serial: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly h: EngineHarness,
    readonly faulty: FaultyStores,
    private readonly plan: CrashPlan | undefined,
    private readonly cleanup: () => Promise<void>,
  ) {
    const executor = h.services.engine.executor;
    const decideOnce = executor.decide.bind(executor);
    executor.decide = (workflowId: string) => {
      const next = this.serial.then(() => this.observe(workflowId, decideOnce));
      this.serial = next.catch(() => undefined);
      return next;
    };
  }

  static async create(backend: StoreBackend, plan?: CrashPlan): Promise<CrashRig> {
    const { stores, cleanup } = await backend.open();
    try {
      const faulty = faultyStores(stores);
      return new CrashRig(await engineHarness({ stores: faulty.stores }), faulty, plan, cleanup);
    } catch (error) {
      await cleanup();
      throw error;
    }
  }

  private async observe(workflowId: string, decideOnce: (id: string) => Promise<void>): Promise<void> {
    const index = this.decides.length;
    const planned = this.plan?.decide === index;
    this.faulty.resetCount();
    if (planned && this.plan) this.faulty.failAfter(this.plan.afterWrites);
    let error: unknown;
    try {
      await decideOnce(workflowId);
    } catch (caught) {
      error = caught;
    }
    this.faulty.disarm();
    this.decides.push({ workflowId, writes: [...this.faulty.log] });
    if (planned) {
      this.failed = { workflowId, tripped: this.faulty.tripped, threw: error instanceof InjectedCrash };
      if (error instanceof InjectedCrash) return;
    }
    if (error !== undefined) throw error;
  }

  /** Runs the failed decide again, directly, then lets what it causes settle. */
  async recover(): Promise<void> {
    const failed = this.failed;
    if (!failed || failed.workflowId === '') return;
    this.failed = { ...failed, workflowId: '' };
    await this.h.services.engine.executor.decide(failed.workflowId);
    await this.h.settle();
  }

  /** The scenario's steps, then a wake-up sweep: it decides the runs left due (a crash's leftovers). */
  async drive(scenario: Scenario): Promise<void> {
    await scenario.define(this.h);
    for (const step of [...scenario.steps, (h: EngineHarness) => h.advance(60_000)]) {
      await step(this.h);
      await this.h.settle();
      await this.recover();
    }
  }

  /** Stops the engine, then closes the stores and deletes what they left on disk. */
  async close(): Promise<void> {
    try {
      await this.h.close();
    } finally {
      await this.cleanup();
    }
  }
}

/** What must not depend on crashes: every run's outcome and wake-up, its task rows, and the queues. */
async function finalState(h: EngineHarness, scenario: Scenario): Promise<unknown> {
  const runs: unknown[] = [];
  for (const name of scenario.workflows) {
    for (const run of await h.stores.executions.findWorkflows({ name })) {
      const rows = await h.tasks(run.workflowId);
      runs.push({
        name,
        workflowId: run.workflowId,
        parentWorkflowId: run.parentWorkflowId,
        status: run.status,
        output: run.output,
        reasonForIncompletion: run.reasonForIncompletion,
        wakeAt: run.wakeAt,
        rows: rows.length,
        tasks: rows.map((t) => ({
          ref: t.referenceTaskName,
          status: t.status,
          retryCount: t.retryCount,
          retried: t.retried,
          output: t.outputData,
        })),
      });
    }
  }
  return { runs, queues: await h.stores.queue.sizes() };
}

const start =
  (name: string, input: Record<string, unknown> = {}) =>
  (h: EngineHarness) =>
    h.start(name, input, { workflowId: RUN_ID });

/** The branches of the dynamic fork scenario: a SWITCH with two worker tasks, a DO_WHILE around one. */
const containerBranches = [
  {
    name: 'route',
    taskReferenceName: 'route',
    type: 'SWITCH',
    evaluatorType: 'value-param',
    expression: 'side',
    decisionCases: {
      b: [
        { name: 'step', taskReferenceName: 'b1' },
        { name: 'step', taskReferenceName: 'b2', inputParameters: { v: ref('b1.output.v') } },
      ],
    },
  },
  {
    name: 'loop',
    taskReferenceName: 'loop',
    type: 'DO_WHILE',
    loopCondition: "$.loop['iteration'] < 2",
    loopOver: [{ name: 'tick', taskReferenceName: 'tick' }],
  },
];

const scenarios: Scenario[] = [
  {
    name: 'three sequential worker tasks',
    workflows: ['seq'],
    define: (h) =>
      h.register({
        name: 'seq',
        tasks: [
          { name: 's1', taskReferenceName: 's1', inputParameters: { n: ref('workflow.input.n') } },
          { name: 's2', taskReferenceName: 's2', inputParameters: { n: ref('s1.output.n') } },
          { name: 's3', taskReferenceName: 's3', inputParameters: { n: ref('s2.output.n') } },
        ],
        outputParameters: { n: ref('s3.output.n') },
      }),
    steps: [
      start('seq', { n: 1 }),
      (h) => h.work('s1', { n: 2 }),
      (h) => h.work('s2', { n: 3 }),
      (h) => h.work('s3', { n: 4 }),
    ],
  },
  {
    name: 'a parent around a SUB_WORKFLOW child',
    workflows: ['parent', 'child'],
    define: async (h) => {
      await h.register({
        name: 'child',
        tasks: [
          { name: 'c1', taskReferenceName: 'c1', inputParameters: { x: ref('workflow.input.x') } },
          { name: 'c2', taskReferenceName: 'c2', inputParameters: { x: ref('c1.output.x') } },
        ],
        outputParameters: { result: ref('c2.output.x') },
      });
      await h.register({
        name: 'parent',
        tasks: [
          { name: 'pre', taskReferenceName: 'pre' },
          {
            name: 'child',
            taskReferenceName: 'sub',
            type: 'SUB_WORKFLOW',
            subWorkflowParam: { name: 'child', version: 1 },
            inputParameters: { x: ref('pre.output.x') },
          },
          {
            name: 'post',
            taskReferenceName: 'post',
            inputParameters: { fromChild: ref('sub.output.result') },
          },
        ],
        outputParameters: { fromChild: ref('post.input.fromChild'), done: ref('post.output.done') },
      });
    },
    steps: [
      start('parent'),
      (h) => h.work('pre', { x: 10 }),
      (h) => h.work('c1', { x: 11 }),
      (h) => h.work('c2', { x: 12 }),
      (h) => h.work('post', { done: true }),
    ],
  },
  {
    name: 'a task that fails twice, is retried after its delay, then succeeds',
    workflows: ['retrying'],
    define: async (h) => {
      await h.registerTaskDefs([{ name: 'flaky', retryCount: 2, retryDelaySeconds: 5, retryLogic: 'FIXED' }]);
      await h.register({
        name: 'retrying',
        tasks: [
          { name: 'flaky', taskReferenceName: 'r' },
          { name: 'after', taskReferenceName: 'after', inputParameters: { got: ref('r.output.ok') } },
        ],
      });
    },
    steps: [
      start('retrying'),
      (h) => h.work('flaky', {}, 'FAILED', 'first'),
      (h) => h.advance(5_000),
      (h) => h.work('flaky', {}, 'FAILED', 'second'),
      (h) => h.advance(5_000),
      (h) => h.work('flaky', { ok: 'third time' }),
      (h) => h.work('after', { fine: true }),
    ],
  },
  {
    name: 'a parent that times out while its child runs',
    workflows: ['impatient', 'slow_child'],
    define: async (h) => {
      await h.register({ name: 'slow_child', tasks: [{ name: 'slow', taskReferenceName: 'slow' }] });
      await h.register({
        name: 'impatient',
        timeoutSeconds: 30,
        timeoutPolicy: 'TIME_OUT_WF',
        tasks: [
          {
            name: 'slow_child',
            taskReferenceName: 'sub',
            type: 'SUB_WORKFLOW',
            subWorkflowParam: { name: 'slow_child' },
          },
        ],
      });
    },
    steps: [start('impatient'), (h) => h.advance(30_000)],
    // The child's task was canceled with it, never polled: its entry went with the child's end.
    queuesAfter: {},
  },
  {
    name: 'a parent terminated while its child runs',
    workflows: ['household', 'chores'],
    define: async (h) => {
      await h.registerTaskDefs([{ name: 'chore', retryCount: 0, responseTimeoutSeconds: 300 }]);
      await h.register({ name: 'chores', tasks: [{ name: 'chore', taskReferenceName: 'chore' }] });
      await h.register({
        name: 'household',
        tasks: [
          {
            name: 'chores',
            taskReferenceName: 'sub',
            type: 'SUB_WORKFLOW',
            subWorkflowParam: { name: 'chores' },
          },
        ],
      });
    },
    steps: [
      start('household'),
      (h) => h.poll('chore'),
      (h) => h.services.engine.operations.terminate(RUN_ID, 'moving out'),
      (h) => h.advance(60_000),
    ],
  },
  {
    // The run fails with `waiting` still in its queue: the decide that ends it cancels the task and
    // takes its entry off the queue (RunEnd.unqueue), so no queue counts it afterwards.
    name: 'a run that fails while another worker task waits in its queue',
    workflows: ['fails_early'],
    define: async (h) => {
      await h.registerTaskDefs([{ name: 'doomed', retryCount: 0 }]);
      await h.register({
        name: 'fails_early',
        tasks: [
          fork('split', [
            [{ name: 'doomed', taskReferenceName: 'doomed' }],
            [{ name: 'waiting', taskReferenceName: 'waiting' }],
          ]),
          join('joined', ['doomed', 'waiting']),
        ],
      });
    },
    steps: [start('fails_early'), (h) => h.work('doomed', {}, 'FAILED', 'broken')],
    queuesAfter: {},
  },
  {
    name: 'a run terminated while its task waits in its queue',
    workflows: ['abandoned'],
    define: (h) =>
      h.register({ name: 'abandoned', tasks: [{ name: 'never_polled', taskReferenceName: 'n' }] }),
    steps: [
      start('abandoned'),
      (h) => h.services.engine.operations.terminate(RUN_ID, 'not needed'),
      (h) => h.advance(60_000),
    ],
    queuesAfter: {},
  },
  {
    name: 'a dynamic fork of a SWITCH branch and a DO_WHILE branch, with tasks inside them',
    workflows: ['containers'],
    define: (h) =>
      h.register({
        name: 'containers',
        tasks: [
          {
            name: 'fan',
            taskReferenceName: 'fan',
            type: 'FORK_JOIN_DYNAMIC',
            dynamicForkTasksParam: 'dynamicTasks',
            dynamicForkTasksInputParamName: 'dynamicTasksInput',
            inputParameters: {
              dynamicTasks: ref('workflow.input.tasks'),
              dynamicTasksInput: ref('workflow.input.inputs'),
            },
          },
          { name: 'gather', taskReferenceName: 'gather', type: 'JOIN' },
        ],
        outputParameters: { v: ref('b2.input.v'), loops: ref('loop.output.iteration') },
      }),
    steps: [
      start('containers', { tasks: containerBranches, inputs: { route: { side: 'b' } } }),
      (h) => h.work('step', { v: 1 }),
      (h) => h.work('tick'),
      (h) => h.work('step', { v: 2 }),
      (h) => h.work('tick'),
    ],
  },
];

describe.each(STORE_BACKENDS)(
  'a decide that crashes after any write and runs again converges ($name)',
  (backend) => {
    let rig: CrashRig | undefined;
    afterEach(async () => {
      await rig?.close();
      rig = undefined;
    });

    for (const scenario of scenarios) {
      it(`for ${scenario.name}`, async () => {
        rig = await CrashRig.create(backend);
        await rig.drive(scenario);
        const expected = await finalState(rig.h, scenario);
        if (scenario.queuesAfter)
          expect((expected as { queues: unknown }).queues).toEqual(scenario.queuesAfter);
        const decides = rig.decides;
        await rig.close();
        rig = undefined;
        const writes = decides.reduce((sum, d) => sum + d.writes.length, 0);
        expect(writes).toBeGreaterThan(decides.length);

        const mismatches: string[] = [];
        let crashes = 0;
        for (const [index, decide] of decides.entries()) {
          for (let k = 0; k <= decide.writes.length; k++) {
            const label = `decide #${index} of ${decide.workflowId}, failing before write ${k + 1} (${decide.writes[k] ?? 'none: decided twice'})`;
            const crashed = await CrashRig.create(backend, { decide: index, afterWrites: k });
            try {
              await crashed.drive(scenario);
              if (k < decide.writes.length) {
                if (!crashed.failed?.tripped) mismatches.push(`${label}: the fault never fired`);
                else crashes++;
              }
              const actual = await finalState(crashed.h, scenario);
              if (JSON.stringify(actual) !== JSON.stringify(expected)) {
                mismatches.push(`${label}: ${JSON.stringify(actual)}`);
              }
            } catch (error) {
              mismatches.push(`${label}: ${error instanceof Error ? error.message : String(error)}`);
            } finally {
              await crashed.close();
            }
          }
        }
        expect(mismatches).toEqual([]);
        expect(crashes).toBe(writes);
      });
    }
  },
);

describe.each(STORE_BACKENDS)(
  'a crashed decide whose queued task a worker finishes before the decide runs again ($name)',
  (backend) => {
    let rig: CrashRig | undefined;
    afterEach(async () => {
      await rig?.close();
      rig = undefined;
    });

    const [sequential] = scenarios;

    it('still moves on to the next task without any other nudge', async () => {
      if (!sequential) throw new Error('no scenario');
      const baseline = await CrashRig.create(backend);
      await baseline.drive(sequential);
      const expected = await finalState(baseline.h, sequential);
      // The decide after s1 completes: the second decide of the run (the first scheduled s1).
      const afterS1 = baseline.decides[1];
      await baseline.close();
      expect(afterS1?.writes).toContain('queue.push');

      const pushAt = afterS1?.writes.indexOf('queue.push') ?? -1;
      for (let k = pushAt + 1; k < (afterS1?.writes.length ?? 0); k++) {
        rig = await CrashRig.create(backend, { decide: 1, afterWrites: k });
        const { h } = rig;
        await sequential.define(h);
        await sequential.steps[0]?.(h);
        await h.work('s1', { n: 2 });
        expect(rig.failed?.tripped).toBe(true);
        // s2 was created and queued before the crash: a worker takes it and finishes it. Its update's
        // decide is the only one that follows (a redelivered request coalesces with it).
        await h.work('s2', { n: 3 });
        await h.work('s3', { n: 4 });
        expect(await finalState(h, sequential)).toEqual(expected);
        await rig.close();
        rig = undefined;
      }
    });
  },
);
