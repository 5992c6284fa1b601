/**
 * An in-memory engine for tests: real decider, executor, task service and decision queue over the
 * memory stores, with a manual clock. Time moves only when a test calls `advance`, which then runs
 * the periodic jobs (lib/jobs) at the new time, so the sweeper decides the runs whose wake-up came
 * due - so tests never sleep to wait for time to pass.
 */

import { CONSUMERS, JOBS } from '../../lib/capabilities.ts';
import { configOf } from '../../lib/config/load.ts';
import { createQuickJsEvaluator, type ScriptEvaluator } from '../../lib/engine/script/evaluator.ts';
import { LocalConsumerHost } from '../../lib/jobs/local-consumers.ts';
import { LocalJobRunner } from '../../lib/jobs/local-runner.ts';
import { silentLogger } from '../../lib/log/logger.ts';
import type { Metrics } from '../../lib/log/metrics.ts';
import { ManualClock } from '../../lib/model/clock.ts';
import type { TaskRecord, WorkflowRecord } from '../../lib/model/execution.ts';
import type { PayloadStore } from '../../lib/payloads/ports.ts';
import { LocalDecisionQueue } from '../../lib/queue/local.ts';
import type { DecisionMessage } from '../../lib/queue/work-queues.ts';
import type { Services } from '../../lib/runtime/compose.ts';
import { jobDepsOf } from '../../lib/runtime/job-deps.ts';
import { createServices } from '../../lib/runtime/services.ts';
import type { ServiceStores } from '../../lib/runtime/store-bundle.ts';
import { createMemoryStores } from '../../lib/runtime/stores.ts';
import type { Stores } from '../../lib/store/ports.ts';
import type { ResultStatus } from '../../lib/tasks/task-result.ts';
import type { StartRequest } from '../../lib/workflows/start.ts';

export interface EngineHarness {
  clock: ManualClock;
  /** The in-process decision queue the engine asks for decides and arms wake-ups through. */
  decisions: LocalDecisionQueue;
  stores: Stores;
  services: Services;
  /** Registers (or overwrites) a workflow definition given as plain JSON. */
  register(def: Record<string, unknown>): Promise<void>;
  registerTaskDefs(defs: Record<string, unknown>[]): Promise<void>;
  /** Starts a run and waits until its first decides are done. */
  start(name: string, input?: Record<string, unknown>, extra?: Partial<StartRequest>): Promise<string>;
  /** Waits until no decide is running or pending. */
  settle(): Promise<void>;
  run(workflowId: string): Promise<WorkflowRecord>;
  /** Every task row of the run, by seq. */
  tasks(workflowId: string): Promise<TaskRecord[]>;
  /** The latest row with this reference name. */
  task(workflowId: string, ref: string): Promise<TaskRecord | undefined>;
  /** Polls one task of a type like a worker would; undefined when none is ready. */
  poll(taskType: string, workerId?: string): Promise<TaskRecord | undefined>;
  /** Reports a result for a task like a worker would, then settles. */
  complete(
    task: TaskRecord,
    output?: Record<string, unknown>,
    status?: ResultStatus,
    reason?: string,
  ): Promise<void>;
  /** Polls a task of the type and completes it with the output; fails the test if none is ready. */
  work(
    taskType: string,
    output?: Record<string, unknown>,
    status?: ResultStatus,
    reason?: string,
  ): Promise<TaskRecord>;
  /** Moves the clock and runs every decide whose wake-up is now due. */
  advance(ms: number): Promise<void>;
  close(): Promise<void>;
}

export interface EngineHarnessOptions {
  scripts?: ScriptEvaluator;
  clock?: ManualClock;
  /** Stores to run over instead of fresh memory stores (e.g. fault-injecting wrappers). */
  stores?: Stores;
  /** Where large payloads go (default: in memory). */
  payloads?: PayloadStore;
  /** Extra `service.*` properties (e.g. a small external-payload threshold). */
  properties?: Record<string, string | number | boolean>;
  /** Where the engine records metrics (none by default). */
  metrics?: Metrics;
}

export async function engineHarness(options: EngineHarnessOptions = {}): Promise<EngineHarness> {
  const clock = options.clock ?? new ManualClock();
  // Stores given as the engine's ports get the other capabilities' stores from memory.
  const stores: ServiceStores = { ...createMemoryStores(), ...options.stores };
  const config = configOf({
    'service.store': 'memory',
    'service.instance-id': 'test',
    ...options.properties,
  });
  // The local host's consumers (decides, HTTP tasks, conductor: events...), in process.
  const consumers = new LocalConsumerHost({
    consumers: CONSUMERS,
    logger: silentLogger,
    gateOn: (gate) => config.gate(gate),
    number: (property) => config.number(property),
  });
  const decisions = new LocalDecisionQueue(
    clock,
    silentLogger,
    consumers.queue<DecisionMessage>('decisions'),
  );
  const ownScripts = options.scripts === undefined;
  const scripts = options.scripts ?? createQuickJsEvaluator();
  const services = createServices({
    config,
    workQueues: consumers.queues(),
    logger: silentLogger,
    metrics: options.metrics,
    clock,
    stores,
    decisions,
    scripts,
    payloads: options.payloads,
  });
  consumers.start((consumer) => jobDepsOf(services, consumer));
  const { engine } = services;
  // The periodic jobs of the local host, ticked by hand: advance() runs the sweeper at the new time.
  const jobs = new LocalJobRunner({
    jobs: JOBS,
    deps: jobDepsOf(services),
    depsFor: (job) => jobDepsOf(services, job),
  });

  // Decides, HTTP tasks and conductor: events feed each other: idle when all are.
  const settle = async (): Promise<void> => {
    do {
      await consumers.idle();
    } while (consumers.busy());
  };
  const harness: EngineHarness = {
    clock,
    decisions,
    // What the services run over: the executions store reads large payloads back whole.
    stores: services.stores,
    services,
    async register(def) {
      await services.metadata.registerWorkflowDef(def, true);
    },
    async registerTaskDefs(defs) {
      await services.metadata.registerTaskDefs(defs);
    },
    async start(name, input = {}, extra = {}) {
      const id = await engine.starter.start({ name, input, ...extra });
      await settle();
      return id;
    },
    settle: () => settle(),
    async run(workflowId) {
      const run = await services.stores.executions.getWorkflow(workflowId);
      if (!run) throw new Error(`no run ${workflowId}`);
      return run;
    },
    tasks: (workflowId) => services.stores.executions.listTasks(workflowId),
    async task(workflowId, ref) {
      const rows = await services.stores.executions.listTasks(workflowId);
      return rows.filter((t) => t.referenceTaskName === ref).at(-1);
    },
    async poll(taskType, workerId = 'test-worker') {
      const [task] = await engine.tasks.poll(taskType, { workerId, count: 1, timeoutMs: 0 });
      return task;
    },
    async complete(task, output = {}, status = 'COMPLETED', reason) {
      await engine.tasks.update({
        workflowInstanceId: task.workflowInstanceId,
        taskId: task.taskId,
        status,
        outputData: output,
        reasonForIncompletion: reason,
      });
      await settle();
    },
    async work(taskType, output = {}, status = 'COMPLETED', reason) {
      const task = await harness.poll(taskType);
      if (!task) throw new Error(`no ${taskType} task ready to poll`);
      await harness.complete(task, output, status, reason);
      return task;
    },
    async advance(ms) {
      clock.advance(ms);
      await jobs.tick(clock.now());
      await settle();
    },
    async close() {
      await jobs.stop();
      await decisions.close();
      await consumers.close();
      if (ownScripts) await scripts.close();
    },
  };
  return harness;
}
