/**
 * The engine as one unit: the task-type registry, the starter, RunEnd (what follows a run's end),
 * the executor and the workflow operations (both call RunEnd, neither holds the other), the worker
 * task service and the run reader, wired over the stores, a decision queue and what the
 * capabilities contribute (task-type ports, run-end hooks, the schema enforcer). Hosts build it
 * once (runtime/services.ts); it lives above the engine and the services it wires, so neither
 * imports the other's composition.
 */
import type { EngineContribution } from '../capability-contract.ts';
import type { EventSinks } from '../engine/event-sinks/sinks.ts';
import { Executor } from '../engine/executor.ts';
import { RunEnd } from '../engine/run-end.ts';
import type { ScriptEvaluator } from '../engine/script/evaluator.ts';
import { SystemTaskRunner } from '../engine/system-tasks.ts';
import type { HttpTaskDeps } from '../engine/tasks/http.ts';
import { defaultRegistry } from '../engine/tasks/index.ts';
import type { Logger } from '../log/logger.ts';
import type { Metrics } from '../log/metrics.ts';
import type { MetadataService } from '../metadata/service.ts';
import type { Clock } from '../model/clock.ts';
import type { IdGenerator } from '../model/ids.ts';
import { LocalNotifier, type Notifier } from '../model/notifier.ts';
import type { PayloadLocations } from '../payloads/locations.ts';
import type { DecisionQueue } from '../queue/ports.ts';
import type { Stores } from '../store/ports.ts';
import { hintedQueue } from '../tasks/hinted-queue.ts';
import { publishingQueue } from '../tasks/publishing-queue.ts';
import { TaskService } from '../tasks/service.ts';
import type { Engine } from '../workflows/engine-api.ts';
import { SyncExecution } from '../workflows/execute.ts';
import { executionStoreStack } from '../workflows/execution-stack.ts';
import { startFailureWorkflow } from '../workflows/failure-workflow.ts';
import { WorkflowOperations } from '../workflows/operations/index.ts';
import { RunMutator } from '../workflows/operations/run-mutator.ts';
import { terminateRunning } from '../workflows/operations/terminate.ts';
import { type RunWatcher, waitForRevision } from '../workflows/progress.ts';
import { WorkflowReader } from '../workflows/service.ts';
import { WorkflowStarter } from '../workflows/start.ts';
import { readOnlyTaskDefs } from '../workflows/test-run/read-only.ts';
import { WorkflowTestRunner } from '../workflows/test-run/runner.ts';
import type { SimulationEngine } from '../workflows/test-run/simulation.ts';

export interface EngineDeps {
  stores: Stores;
  /** Fresh in-memory stores for a test run's throwaway engine (POST /workflow/test). */
  simulationStores: () => Stores;
  payloads: PayloadLocations;
  metadata: MetadataService;
  decisions: DecisionQueue;
  scripts: ScriptEvaluator;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  /** Engine metrics (EMF on AWS); none when absent. */
  metrics?: Metrics;
  /**
   * Commit notifications for waiting requests; default in-process only (lib/workflows/progress.ts).
   * The host's `stores.executions` publishes its writes here (its stack, built by the workflows
   * capability's decorator, lib/workflows/execution-stack.ts).
   */
  watcher: RunWatcher;
  /**
   * Queue notifications for long polls, keyed by queue name; default in-process only. The AWS host
   * adds re-reads with back-off, as pushes made by other functions are not seen there.
   */
  queueWatcher?: Notifier;
  /** How long a peek's entries answer the next peeks of their queue (hinted-queue.ts); HINT_MS when absent, 0 for none. */
  peekHintMs?: number;
  /**
   * What the capabilities give the engine (Capability.engine): task-type ports, run-end and
   * run-removed hooks, the schema enforcer (absent: nothing is enforced).
   */
  contributions?: readonly EngineContribution[];
  /** HTTP tasks: whether private addresses are allowed, and the system-task queue they go through. */
  http?: HttpTaskDeps;
  /** Where EVENT tasks publish (lib/engine/event-sinks/sinks.ts). */
  events?: EventSinks;
}

export function createEngine(deps: EngineDeps): Engine {
  const { stores, decisions, clock, ids, logger } = deps;
  const contributions = deps.contributions ?? [];
  const schemas = contributions.find((c) => c.enforcer)?.enforcer;
  const pull = contributions.find((c) => c.taskPorts?.messages)?.taskPorts?.messages;
  const runEndHooks = contributions.flatMap((c) => (c.onRunEnded ? [c.onRunEnded] : []));
  const runRemovedHooks = contributions.flatMap((c) => (c.onRunRemoved ? [c.onRunRemoved] : []));
  const { watcher } = deps;
  // The host's execution store is its whole stack already (the workflows capability's decorator):
  // every write the engine makes to a run is published to `watcher`.
  const { executions } = stores;
  // Every push to a worker queue wakes the long polls waiting on it.
  const queueWatcher = deps.queueWatcher ?? new LocalNotifier();
  const queue = publishingQueue(hintedQueue(stores.queue, deps.peekHintMs), queueWatcher, clock);
  // START_WORKFLOW starts runs through the starter, which is built after the registry.
  const workflows = { start: (request: Parameters<WorkflowStarter['start']>[0]) => starter.start(request) };
  const registry = defaultRegistry({
    scripts: deps.scripts,
    clock,
    workflows,
    http: deps.http,
    messages: pull && { ...pull, executions },
    events: deps.events,
  });
  const starter = new WorkflowStarter({
    executions,
    taskDefs: stores.taskDefs,
    metadata: deps.metadata,
    decisions,
    clock,
    ids,
    logger,
    schemas,
  });
  const mutator = new RunMutator({ executions, decisions, clock });
  // What follows a run's end, for the executor and the operations alike (neither holds the other).
  const runEnd = new RunEnd({
    executions,
    queue,
    decisions,
    registry,
    clock,
    logger,
    startFailureWorkflow: (run) => startFailureWorkflow(starter, run),
    terminateRun: (workflowId, reason) => terminateRunning(mutator, workflowId, reason),
    // The capabilities' hooks (a run's message queue goes with its end, and with its removal).
    onRunEnded: runEndHooks,
    onRunRemoved: runRemovedHooks,
  });
  const operations = new WorkflowOperations({
    mutator,
    runEnd,
    executions,
    queue,
    registry,
    clock,
    latestDefinition: (name) => starter.latestDefinition(name),
  });
  const executor = new Executor({
    executions,
    queue,
    pollData: stores.pollData,
    decisions,
    registry,
    clock,
    logger,
    metrics: deps.metrics,
    schemas,
    startChild: async (child, parent) => {
      await starter.start({
        workflowId: child.workflowId,
        name: child.name,
        version: child.version,
        workflowDef: child.workflowDefinition,
        input: child.input,
        taskToDomain: child.taskToDomain,
        priority: child.priority,
        correlationId: child.correlationId,
        parentWorkflowId: parent.workflowId,
        parentWorkflowTaskId: child.parentTaskId,
      });
    },
    runEnd,
  });
  const reader = new WorkflowReader(executions, registry);
  return {
    executor,
    starter,
    tasks: new TaskService({
      executions,
      queue,
      queueWatcher,
      pollData: stores.pollData,
      limits: stores.limits,
      decisions,
      registry,
      clock,
      schemas,
    }),
    reader,
    operations,
    testRuns: new WorkflowTestRunner({
      findWorkflowDef: (name, version) => deps.metadata.findWorkflowDef(name, version),
      parseStart: (body) => starter.parseRequest(body),
      simulationEngine: (simClock, simDecisions) => simulationEngine(deps, simClock, simDecisions),
      clock,
    }),
    execution: new SyncExecution({
      starter,
      reader,
      registry,
      watcher,
      clock,
      ids,
      decide: (workflowId) => executor.decide(workflowId),
      requestDecide: (workflowId) => decisions.request(workflowId),
    }),
    payloads: deps.payloads,
    systemTasks: new SystemTaskRunner({ executions, decisions, registry, clock }),
    requestDecide: (workflowId) => decisions.request(workflowId),
    waitForProgress: (workflowId, rev, timeoutMs) =>
      waitForRevision({ executions, watcher, clock }, workflowId, rev, timeoutMs),
  };
}

/**
 * A test run's engine: this same wiring over fresh memory stores and the run's own clock and
 * decision queue. Registered definitions are read through (metadata; task definitions read-only).
 */
function simulationEngine(deps: EngineDeps, clock: Clock, decisions: DecisionQueue): SimulationEngine {
  const fresh = deps.simulationStores();
  const stores = {
    ...fresh,
    // Its runs' writes are published as the host's are (lib/workflows/execution-stack.ts).
    executions: executionStoreStack(fresh.executions, { publishTo: deps.watcher }),
    taskDefs: readOnlyTaskDefs(deps.stores.taskDefs),
  };
  // Its HTTP tasks are made in the test run itself, not handed to this host's system-task queue.
  const http = deps.http && { allowPrivateNetworks: deps.http.allowPrivateNetworks };
  // Its queues are its own: their pushes wake no poll of the host. Its EVENT tasks publish
  // nowhere: a test run must not start this host's event handlers.
  const events: EventSinks = { conductor: { send: async () => {} } };
  const engine = createEngine({ ...deps, stores, decisions, clock, http, events, queueWatcher: undefined });
  return { ...engine, executions: fresh.executions, queue: stores.queue };
}
