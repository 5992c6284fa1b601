/**
 * Workflow executions and their tasks, in Conductor's wire model (docs/conductor-compat.md §2.5,
 * §2.6, §3). Internal bookkeeping fields are marked; the API views (api.ts) list what is shown.
 */
import type { WorkflowDef, WorkflowTask } from './definitions.ts';

export type WorkflowStatus = 'RUNNING' | 'COMPLETED' | 'FAILED' | 'TIMED_OUT' | 'TERMINATED' | 'PAUSED';

export type TaskStatus =
  | 'SCHEDULED'
  | 'IN_PROGRESS'
  | 'COMPLETED'
  | 'COMPLETED_WITH_ERRORS'
  | 'FAILED'
  | 'FAILED_WITH_TERMINAL_ERROR'
  | 'TIMED_OUT'
  | 'CANCELED'
  | 'SKIPPED';

export const TASK_STATUSES: readonly TaskStatus[] = [
  'SCHEDULED',
  'IN_PROGRESS',
  'COMPLETED',
  'COMPLETED_WITH_ERRORS',
  'FAILED',
  'FAILED_WITH_TERMINAL_ERROR',
  'TIMED_OUT',
  'CANCELED',
  'SKIPPED',
];

export const isTerminalWorkflow = (s: WorkflowStatus): boolean =>
  s === 'COMPLETED' || s === 'FAILED' || s === 'TIMED_OUT' || s === 'TERMINATED';

export const isTerminalTask = (s: TaskStatus): boolean => s !== 'SCHEDULED' && s !== 'IN_PROGRESS';

export const isSuccessfulTask = (s: TaskStatus): boolean =>
  s === 'COMPLETED' ||
  s === 'COMPLETED_WITH_ERRORS' ||
  s === 'SKIPPED' ||
  s === 'SCHEDULED' ||
  s === 'IN_PROGRESS';

/** FAILED_WITH_TERMINAL_ERROR and CANCELED are never retried (§3.2). */
export const isRetriableTask = (s: TaskStatus): boolean => s === 'FAILED' || s === 'TIMED_OUT';

export interface TaskRecord {
  taskId: string;
  taskType: string;
  taskDefName: string;
  referenceTaskName: string;
  status: TaskStatus;
  inputData: Record<string, unknown>;
  outputData: Record<string, unknown>;
  workflowInstanceId: string;
  workflowType: string;
  correlationId?: string;
  workflowPriority: number;
  retryCount: number;
  seq: number;
  pollCount: number;
  scheduledTime: number;
  startTime: number;
  endTime: number;
  updateTime: number;
  startDelayInSeconds: number;
  callbackAfterSeconds: number;
  responseTimeoutSeconds: number;
  retried: boolean;
  retriedTaskId?: string;
  executed: boolean;
  callbackFromWorker: boolean;
  workerId?: string;
  reasonForIncompletion?: string;
  workflowTask: WorkflowTask;
  domain?: string;
  rateLimitPerFrequency: number;
  rateLimitFrequencyInSeconds: number;
  iteration: number;
  subWorkflowId?: string;
  /**
   * Where `inputData` / `outputData` are kept when too large for the record (lib/payloads). Stored
   * records then hold `{}` there; every read through the store gives the whole payload back.
   */
  externalInputPayloadStoragePath?: string;
  externalOutputPayloadStoragePath?: string;
  /** The DO_WHILE or FORK task this one runs under (internal). */
  parentTaskId?: string;
  /** Internal: when the first attempt of this reference was scheduled (totalTimeoutSeconds clock). */
  firstScheduledTime: number;
  /** Internal: WAIT deadline (epoch ms), 0 when none. */
  waitTimeout: number;
  /**
   * Internal: the visibleAt (epoch ms) of the worker-queue entry this task's last push wrote, set
   * in the same row write as the push. The DynamoDB queue keys an entry by it, so removing the
   * entry needs it, and a claim drops an entry that names another time (a superseded one). Absent
   * on rows queued before the field existed (their entries are keyed by task id), on tasks never
   * queued, and from the claim on (the claim removes the entry) until the task is queued again.
   */
  visibleAt?: number;
  /** Internal: row revision, bumped by every write; writers condition on it. */
  /**
   * Internal: a DO_WHILE whose last iteration is over and whose output in the run record lacks
   * older iterations: 'gathering' until the executor rebuilds the full output from the task rows
   * ('gathered'), so that later templates see every iteration (lib/engine/tasks/do-while.ts).
   */
  loopEnd?: 'gathering' | 'gathered';
  rev: number;
}

export interface WorkflowRecord {
  workflowId: string;
  workflowName: string;
  workflowVersion: number;
  status: WorkflowStatus;
  createTime: number;
  updateTime: number;
  endTime: number;
  input: Record<string, unknown>;
  output: Record<string, unknown>;
  variables: Record<string, unknown>;
  correlationId?: string;
  priority: number;
  taskToDomain: Record<string, string>;
  parentWorkflowId?: string;
  parentWorkflowTaskId?: string;
  reasonForIncompletion?: string;
  failedReferenceTaskNames: string[];
  failedTaskNames: string[];
  /** Internal: the task whose failure ended the run (passed to the failure workflow). */
  failedTaskId?: string;
  lastRetriedTime: number;
  reRunFromWorkflowId?: string;
  event?: string;
  /**
   * The idempotency key the start request carried, and its strategy (lib/workflows/idempotency.ts),
   * shown on the run as Orkes shows them; absent when it carried none (keys the service derives
   * itself, execute's requestId and a schedule's fire, are not the run's own).
   */
  idempotencyKey?: string;
  idempotencyStrategy?: 'FAIL' | 'RETURN_EXISTING' | 'FAIL_ON_RUNNING';
  /** Where `input` / `output` are kept when too large for the record (lib/payloads), as for tasks. */
  externalInputPayloadStoragePath?: string;
  externalOutputPayloadStoragePath?: string;
  /** The definition snapshot this run executes; later edits to the definition do not affect it. */
  workflowDefinition: WorkflowDef;
  /** Internal: commit revision of the record; every commit is conditional on it. */
  rev: number;
  /** Internal: last task sequence number handed out. */
  seq: number;
  /**
   * Internal: the decider's working set: every task attempt of the run except the iterations of
   * finished DO_WHILE loops, superseded attempts and the branches of a dynamic fork whose JOIN is
   * over (unless a template of the definition names them), which live only as task rows. It keeps
   * a decide's cost independent of how long the run has been going.
   */
  tasks: TaskRecord[];
  /** Internal: the next time the decider must look at this run (timeouts, delays), 0 for none. */
  wakeAt: number;
  /**
   * Internal: when the decide that last committed the run armed its stored wake-up (or kept one an
   * earlier decide armed: DecisionQueue.wakeAt `keptSince`). Only decides set it: a commit of an
   * operation (pause, set-variables...) moves updateTime and arms nothing, and one that sets a
   * wake-up (restart, terminate) clears this.
   */
  wakeArmedAt?: number;
  /** Internal: when an ended run expires (service.workflow.retention); absent while it is kept. */
  expiresAt?: number;
  /** Internal: the engine (not the terminate API) ended this run, so its failure workflow runs. */
  endedByEngine?: boolean;
  /** Internal: restarts and reruns so far; task ids derive from it (ids.ts taskIdOf). */
  epoch?: number;
  /**
   * Internal: set when the run is created, from its creation time (ids.ts generationAt), and kept
   * through restarts; task ids derive from it (ids.ts taskIdOf), so a run created again under a
   * reused id never adopts or shows the earlier run's rows. Absent on runs created before it existed.
   */
  generation?: string;
  /**
   * Internal: set when the run is created. Its task ids begin with its home (ids.ts homeOf), so a
   * task is found by its id alone without an index of task ids (the DynamoDB store keeps the run's
   * rows under its home). Absent on runs created before homes existed: their task ids stay as they
   * were, so a run in flight across the upgrade derives the ids it always did.
   */
  homedTaskIds?: true;
  /**
   * Internal: when a decide first left some of the run's open rows unread (a decide that read only
   * the rows its requests named, Executor.decide); absent once a decide has read every open row.
   * The first decide FULL_READ_AFTER_MS after it reads every row again.
   */
  partialSince?: number;
  /** Internal: attempts a retry asked to try again; the decider schedules each, whatever its retry limit. */
  retryTaskIds?: string[];
  /** Internal: the task a rerun starts again from; the next decide schedules it and clears this. */
  rerunFrom?: RerunStart;
  /** Internal: the task id of the last rerun from a task of this run (a re-run rerun finds it done). */
  rerunOfTaskId?: string;
}

/** Where a rerun picks up: a workflow task to schedule anew, with the input to give it, if any. */
export interface RerunStart {
  /** The definition's reference name (no loop suffix). */
  ref: string;
  iteration: number;
  parentTaskId?: string;
  input?: Record<string, unknown>;
}

/**
 * A run's own copy of a task brought up to the task's row: the row's fields (what workers and the
 * API change), the run's bookkeeping (executed, retried), and the definition's own workflowTask
 * object, which the record codec leaves out.
 */
export function withRow(task: TaskRecord, row: TaskRecord): TaskRecord {
  return { ...row, workflowTask: task.workflowTask, executed: task.executed, retried: task.retried };
}

/**
 * Whether what follows a run's end (RunEnd.follow: its canceled children terminated, its
 * parent told) may still be to do: an ended run keeps a stored wake-up until the decide that does
 * it has (a terminate leaves one due at once), and the engine clears it in the commit that ends one.
 */
export function endPending(run: WorkflowRecord): boolean {
  return isTerminalWorkflow(run.status) && run.wakeAt !== 0;
}
