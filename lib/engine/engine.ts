/**
 * The engine as one unit: the task-type registry, the executor, the starter, the worker task
 * service and the run reader, wired over the stores and a decision queue. Hosts build it once.
 */
import type { Logger } from '../log/logger.ts';
import type { MetadataService } from '../metadata/service.ts';
import type { Clock } from '../model/clock.ts';
import { toApiWorkflow, type WorkflowRecord } from '../model/execution.ts';
import { derivedId, type IdGenerator } from '../model/ids.ts';
import type { DecisionQueue } from '../queue/ports.ts';
import type { Stores } from '../store/ports.ts';
import { TaskService } from '../tasks/service.ts';
import { WorkflowReader } from '../workflows/service.ts';
import { WorkflowStarter } from '../workflows/start.ts';
import { Executor } from './executor.ts';
import type { ScriptEvaluator } from './script/evaluator.ts';
import { defaultRegistry } from './tasks/index.ts';

export interface Engine {
  executor: Executor;
  starter: WorkflowStarter;
  tasks: TaskService;
  reader: WorkflowReader;
  /** Asks for a decide of the run (PUT /workflow/decide). */
  requestDecide(workflowId: string): Promise<void>;
  /** Waits until the run's record moves past `rev` (a decide committed) or the time is up. */
  waitForProgress(workflowId: string, rev: number, timeoutMs: number): Promise<void>;
}

export interface EngineDeps {
  stores: Stores;
  metadata: MetadataService;
  decisions: DecisionQueue;
  scripts: ScriptEvaluator;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
}

export function createEngine(deps: EngineDeps): Engine {
  const registry = defaultRegistry();
  const { stores, decisions, clock, ids, logger } = deps;
  const starter = new WorkflowStarter({
    executions: stores.executions,
    taskDefs: stores.taskDefs,
    metadata: deps.metadata,
    decisions,
    clock,
    ids,
  });
  const executor = new Executor({
    executions: stores.executions,
    queue: stores.queue,
    pollData: stores.pollData,
    decisions,
    registry,
    scripts: deps.scripts,
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
    reader: new WorkflowReader(stores.executions),
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

/** The failure workflow gets the failed run's input plus what failed (reference/conductor.md §4.6). */
async function startFailureWorkflow(starter: WorkflowStarter, run: WorkflowRecord): Promise<void> {
  const def = run.workflowDefinition;
  let name = def.failureWorkflow as string;
  // A `${workflow.input.x}` name is read from the run's input, as Conductor does.
  const templated = /^\$\{workflow\.input\.([^}]+)\}$/.exec(name);
  if (templated?.[1]) name = String(run.input[templated[1]] ?? '');
  if (name === '') return;
  await starter.start({
    // Deterministic, so a repeated end does not start a second failure workflow.
    workflowId: derivedId('failure', run.workflowId, run.endTime),
    name,
    version: def.failureWorkflowVersion,
    input: {
      ...run.input,
      workflowId: run.workflowId,
      reason: run.reasonForIncompletion,
      failureStatus: run.status,
      failureTaskId: run.failedTaskId,
      failedWorkflow: toApiWorkflow(run, []),
    },
    correlationId: run.correlationId,
    taskToDomain: run.taskToDomain,
  });
}
