/**
 * The one interface every task type implements, and the context the decider hands it. A task type
 * is its pure spec (lib/model/task-types/) plus one module in engine/tasks/ that builds on it,
 * listed in the registry; the decider, the executor and the services never name a type themselves.
 */
import type { DefinitionGraph } from '../model/definition-graph.ts';
import type { TaskDef, WorkflowDef, WorkflowTask } from '../model/definitions.ts';
import type { TaskRecord, TaskStatus, WorkflowRecord } from '../model/execution.ts';
import type { TaskTypeSpec } from '../model/task-types/spec.ts';

export interface ScheduleRequest {
  workflowTask: WorkflowTask;
  /** DO_WHILE iteration (1-based) the task runs in; 0 outside loops. */
  iteration: number;
  /** The container task (DO_WHILE, FORK) this one runs under. */
  parentTaskId?: string;
  /** The failed attempt this one retries, and the delay before it may start. */
  retryOf?: TaskRecord;
  delaySeconds?: number;
  /** The task's input as given (a rerun's taskInput) instead of resolved from inputParameters. */
  input?: Record<string, unknown>;
  /**
   * Input merged over the task's resolved inputParameters, its keys winning: a dynamic fork
   * branch's own map (docs/conductor-compat.md §5.8), as Conductor's mapper `putAll`s it.
   */
  givenInput?: Record<string, unknown>;
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
  /** The registered or inline task definition of a workflow task, if any. */
  taskDef(workflowTask: WorkflowTask): TaskDef | undefined;
  /** Resolves `${...}` templates against the run's current state. */
  resolve(template: unknown, taskId?: string): unknown;
  /** Builds (does not add) a task record for a workflow task, with its input resolved. */
  createTask(request: ScheduleRequest, fields?: Partial<TaskRecord>): TaskRecord;
  /**
   * Places a container task a dynamic fork made (a SWITCH or DO_WHILE branch) in this decide's
   * graph, so what runs inside it follows on as in the definition; other tasks need no place.
   */
  placeForked(workflowTask: WorkflowTask): void;
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
  /**
   * Retires tasks and deletes their rows, and the rows of the attempts they superseded, once this
   * decide has committed (DO_WHILE `keepLastN`: trimmed iterations leave storage).
   */
  deleteRows(tasks: TaskRecord[]): void;
  /** Asks for another decide once this one commits (a step that needs the executor's reads first). */
  decideAgain(): void;
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

/** What an async task's `start` is handed: the task as stored when the decide that made it committed. */
export interface AsyncStartContext {
  readonly task: TaskRecord;
  readonly run: WorkflowRecord;
  readonly now: number;
}

/** How an async task ended (or that it is still going), reported back like a worker's result. */
export interface AsyncTaskResult {
  status: 'IN_PROGRESS' | 'COMPLETED' | 'FAILED' | 'FAILED_WITH_TERMINAL_ERROR';
  outputData?: Record<string, unknown>;
  reasonForIncompletion?: string;
  /** With IN_PROGRESS: call `start` again after this many seconds (a poll of a remote job). */
  callbackAfterSeconds?: number;
}

export interface TaskType extends TaskTypeSpec {
  /**
   * Creates the records for a workflow task being scheduled: the task itself and, for containers,
   * what they start with. The default (worker types) is one SCHEDULED task.
   */
  schedule(ctx: DecideContext, request: ScheduleRequest): Promise<TaskRecord[]> | TaskRecord[];
  /** Re-evaluates a non-terminal task on each decide ('sync' types); returns true when it changed anything. */
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
  /**
   * The input a fork of this type gave one of the tasks it forked (FORK_JOIN_DYNAMIC: the branch's
   * map), read again from the fork's own task; undefined when it gave none. A retried branch gets it
   * again (lifecycle.ts), as Conductor's retry keeps a task's input.
   */
  forkedInput?(fork: TaskRecord, ref: string, def: WorkflowDef): Record<string, unknown> | undefined;
  /**
   * The task runs a child workflow (SUB_WORKFLOW): the task as it should be once `child` is over,
   * undefined while the child runs. RunEnd (lib/engine/run-end.ts) calls it when a child ends, for
   * the executor and the operations alike, and each decide catches up on a missed end; a type with
   * this hook owns its child run, so the child is
   * terminated when the task is canceled, and the signal routes look into the child.
   */
  onChildEnded?(task: TaskRecord, child: WorkflowRecord, now: number): TaskRecord | undefined;
  /**
   * The read-side view of a task row for API readers, given every task row of the run (a DO_WHILE
   * rebuilds the iterations its run record no longer keeps). Never used by the decider.
   */
  expandOutput?(task: TaskRecord, rows: readonly TaskRecord[], def: WorkflowDef): TaskRecord;
  /**
   * The work of an 'async' type (HTTP, EVENT, PULL_WORKFLOW_MESSAGES...), run off the decider:
   * once the decide that scheduled the task has committed, the executor hands the task to
   * `start`, and reports what it answers back like a worker's update (a conditional write of the
   * task row, then a decide of the run), unless the answer is a bare IN_PROGRESS, which says
   * nothing new. `schedule` creates such a task IN_PROGRESS or SCHEDULED;
   * it is never queued for workers. A throw fails the task (FAILED, so a task definition may retry
   * it). Today `start` runs in the process that committed; a system-task consumer can take over
   * the same hook without the type changing. SUB_WORKFLOW predates this hook and starts its child
   * through DecideContext.startChild instead.
   */
  start?(ctx: AsyncStartContext): Promise<AsyncTaskResult>;
  /**
   * For a type whose work is done off the deciding process by a durable queue's consumer (HTTP
   * with the system-task queue): hands a task the decide created to that queue, before the commit,
   * as a worker task's queue entry is pushed. Sent after the commit, as `start` is, a crash in
   * between would leave the task open with nobody on it. A decide re-run after a crash before its
   * commit hands the task over again, so the consumer takes a task twice: it drops a message for a
   * task that is over, and an in-progress one is worked again (HTTP requests are at least once).
   * A type that dispatches has no `start`.
   */
  dispatch?(task: TaskRecord): Promise<void>;
  /**
   * The work itself, for a type whose `start` hands the task off the deciding process (HTTP sends
   * it to the system-task queue and answers IN_PROGRESS): the system-task consumer
   * (engine/system-tasks.ts) calls it with the task as stored and reports the answer like `start`'s.
   */
  perform?(ctx: AsyncStartContext): Promise<AsyncTaskResult>;
  /**
   * `start` runs again after every decide of the run while the task is open, not only after the
   * decide that created it (PULL_WORKFLOW_MESSAGES waits for a push, which asks for a decide). An
   * IN_PROGRESS answer of such a re-run changes nothing and asks for no decide.
   */
  startOnEveryDecide?: boolean;
}
