/**
 * The engine as one unit: the task-type registry, the executor, the starter, the worker task
 * service, the run reader and the workflow operations, wired over the stores and a decision
 * queue. Hosts build it once (runtime/services.ts); it lives above the engine and the services it
 * wires, so neither imports the other's composition.
 */
import { Executor } from '../engine/executor.ts';
import type { ScriptEvaluator } from '../engine/script/evaluator.ts';
import { defaultRegistry } from '../engine/tasks/index.ts';
import type { Logger } from '../log/logger.ts';
import type { MetadataService } from '../metadata/service.ts';
import type { Clock } from '../model/clock.ts';
import type { IdGenerator } from '../model/ids.ts';
import type { PayloadLocations } from '../payloads/locations.ts';
import type { DecisionQueue } from '../queue/ports.ts';
import type { Stores } from '../store/ports.ts';
import { TaskService } from '../tasks/service.ts';
import { startFailureWorkflow } from '../workflows/failure-workflow.ts';
import { WorkflowOperations } from '../workflows/operations/index.ts';
import { RunMutator } from '../workflows/operations/run-mutator.ts';
import { WorkflowReader } from '../workflows/service.ts';
import { WorkflowStarter } from '../workflows/start.ts';

export interface Engine {
  executor: Executor;
  starter: WorkflowStarter;
  tasks: TaskService;
  reader: WorkflowReader;
  /** Operations on existing runs (terminate...), each a read-change-commit through RunMutator. */
  operations: WorkflowOperations;
  /** Asks for a decide of the run (PUT /workflow/decide). */
  requestDecide(workflowId: string): Promise<void>;
  /** Waits until the run's record moves past `rev` (a decide committed) or the time is up. */
  waitForProgress(workflowId: string, rev: number, timeoutMs: number): Promise<void>;
  /** External storage locations of large payloads (externalstoragelocation routes). */
  payloads: PayloadLocations;
}

export interface EngineDeps {
  stores: Stores;
  payloads: PayloadLocations;
  metadata: MetadataService;
  decisions: DecisionQueue;
  scripts: ScriptEvaluator;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
}

export function createEngine(deps: EngineDeps): Engine {
  const { stores, decisions, clock, ids, logger } = deps;
  const registry = defaultRegistry({ scripts: deps.scripts, clock });
  const starter = new WorkflowStarter({
    executions: stores.executions,
    taskDefs: stores.taskDefs,
    metadata: deps.metadata,
    decisions,
    clock,
    ids,
  });
  const operations = new WorkflowOperations(
    new RunMutator({ executions: stores.executions, decisions, clock }),
  );
  const executor = new Executor({
    executions: stores.executions,
    queue: stores.queue,
    pollData: stores.pollData,
    decisions,
    registry,
    clock,
    logger,
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
    startFailureWorkflow: (run) => startFailureWorkflow(starter, run),
    terminate: (workflowId, reason) => operations.terminate(workflowId, reason),
  });
  return {
    executor,
    starter,
    tasks: new TaskService({
      executions: stores.executions,
      queue: stores.queue,
      pollData: stores.pollData,
      decisions,
      registry,
      clock,
    }),
    reader: new WorkflowReader(stores.executions, registry),
    operations,
    payloads: deps.payloads,
    requestDecide: (workflowId) => decisions.request(workflowId),
    waitForProgress: async (workflowId, rev, timeoutMs) => {
      const deadline = clock.now() + timeoutMs;
      while (clock.now() < deadline) {
        const record = await stores.executions.getWorkflow(workflowId);
        if (!record || record.rev > rev) return;
        await new Promise((r) => setTimeout(r, 10));
      }
    },
  };
}
