/**
 * The one interface every task type implements, and the context the decider hands it. A task type
 * is one module in engine/tasks/, listed in the registry; the decider never names a type itself.
 */
import type { TaskDef, WorkflowTask } from '../model/definitions.ts';
import type { TaskRecord, TaskStatus, WorkflowRecord } from '../model/execution.ts';
import type { DefinitionGraph } from '../model/definition-graph.ts';
import type { ScriptEvaluator } from './script/evaluator.ts';

export interface ScheduleRequest {
  workflowTask: WorkflowTask;
  /** DO_WHILE iteration (1-based) the task runs in; 0 outside loops. */
  iteration: number;
  /** The container task (DO_WHILE, FORK) this one runs under. */
  parentTaskId?: string;
  /** The failed attempt this one retries, and the delay before it may start. */
  retryOf?: TaskRecord;
  delaySeconds?: number;
}

/** A child workflow to start (SUB_WORKFLOW), decided purely and carried out by the executor. */
export interface ChildStart {
  workflowId: string;
  parentTaskId: string;
  name: string;
  version?: number;
  workflowDefinition?: Record<string, unknown>;
  input: Record<string, unknown>;
  taskToDomain: Record<string, string>;
  priority: number;
  correlationId?: string;
}

export interface DecideContext {
  readonly workflow: WorkflowRecord;
  readonly now: number;
  readonly graph: DefinitionGraph;
  readonly scripts: ScriptEvaluator;
  /** The registered or inline task definition of a workflow task, if any. */
  taskDef(workflowTask: WorkflowTask): TaskDef | undefined;
  /** Resolves `${...}` templates against the run's current state. */
  resolve(template: unknown, taskId?: string): unknown;
  /** Builds (does not add) a task record for a workflow task, with its input resolved. */
  createTask(request: ScheduleRequest, fields?: Partial<TaskRecord>): TaskRecord;
  /** Schedules a workflow task through its type (containers recurse); skips references already present. */
  schedule(request: ScheduleRequest): Promise<TaskRecord[]>;
  /** Marks a task changed so the executor persists it. */
  touch(task: TaskRecord): void;
  /** Sets a task's status (terminal statuses stamp endTime) and marks it changed. */
  setStatus(task: TaskRecord, status: TaskStatus, reason?: string): void;
  /** The live (latest, not superseded) task with exactly this reference name. */
  taskByRef(ref: string): TaskRecord | undefined;
  /** Removes finished tasks from the decider's working set (they remain as task rows). */
  retire(tasks: TaskRecord[]): void;
  /** Starts a child workflow after this decide commits. */
  startChild(child: ChildStart): void;
  /** Terminates a child workflow after this decide commits. */
  terminateChild(workflowId: string, reason: string): void;
  /** Ends the run now (TERMINATE task). */
  endWorkflow(
    status: 'COMPLETED' | 'FAILED' | 'TERMINATED',
    reason: string | undefined,
    output?: Record<string, unknown>,
  ): void;
}

export interface TaskType {
  readonly type: string;
  /** 'worker' tasks wait in a queue for external workers; 'system' tasks are run by the engine. */
  readonly kind: 'worker' | 'system';
  /** Built-in operators (SWITCH, FORK, JOIN, DO_WHILE...) are never retried (§4.3). */
  readonly operator?: boolean;
  /**
   * Creates the records for a workflow task being scheduled: the task itself and, for containers,
   * what they start with. The default (worker types) is one SCHEDULED task.
   */
  schedule(ctx: DecideContext, request: ScheduleRequest): Promise<TaskRecord[]> | TaskRecord[];
  /** Re-evaluates a non-terminal task on each decide; returns true when it changed anything. */
  execute?(ctx: DecideContext, task: TaskRecord): Promise<boolean> | boolean;
  /**
   * What to schedule once this task is done. Default: the graph's next task. Containers that
   * scheduled their own children answer [] (SWITCH with a branch, FORK).
   */
  next?(ctx: DecideContext, task: TaskRecord): WorkflowTask[] | undefined;
  /** The run ended or the task was canceled while non-terminal (a child workflow is terminated). */
  cancel?(ctx: DecideContext, task: TaskRecord): void;
  /** When the decider must look at this task again without any event (WAIT deadline); 0 for never. */
  wakeAt?(task: TaskRecord): number;
}
