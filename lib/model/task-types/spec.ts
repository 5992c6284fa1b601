/**
 * What a task type is, as pure data and pure rules: its name, whether workers, the decider or an
 * out-of-decide runner carries it out, the child task lists it holds, and its registration checks.
 * Metadata validation, the definition graph and the engine all read these specs, so every list of
 * task types in the service is derived from one place (lib/model/task-types/index.ts).
 */
import type { WorkflowTask } from '../definitions.ts';

/**
 * 'worker' tasks wait in a queue for external workers; 'sync' tasks are run by the decider inside a
 * decide; 'async' tasks leave the decide and report back (Conductor's isAsync system tasks).
 */
export type TaskKind = 'worker' | 'sync' | 'async';

/** Where a registration problem is recorded (metadata's Issues collector satisfies it). */
export interface IssueSink {
  add(path: string, message: string, invalidValue?: unknown): void;
}

/** A field of a workflow task that holds child task lists, and the shape it has on the wire. */
export interface ChildField {
  name: 'decisionCases' | 'defaultCase' | 'forkTasks' | 'loopOver';
  /** 'list': WorkflowTask[]; 'lists': WorkflowTask[][]; 'map': Record<string, WorkflowTask[]>. */
  shape: 'list' | 'lists' | 'map';
}

export interface TaskTypeSpec {
  readonly type: string;
  readonly kind: TaskKind;
  /**
   * False for a Conductor system type this service does not carry out: it registers as Conductor
   * lets it, and a run that reaches it fails that task at once, terminally.
   */
  readonly supported: boolean;
  /** Built-in operators (SWITCH, FORK, JOIN, DO_WHILE...) are never retried (docs/conductor-compat.md §4.3). */
  readonly operator?: boolean;
  /** The fields holding this type's child task lists (containers only). */
  readonly children?: readonly ChildField[];
  /**
   * How the flow leaves a child list that ran to its end: 'continue' goes on after this task
   * (SWITCH); otherwise nothing follows and the container re-evaluates itself (FORK's JOIN, DO_WHILE).
   */
  readonly afterChildren?: 'continue';
  /** A loop container: its children run once per iteration (DO_WHILE). */
  readonly loop?: boolean;
  /**
   * A retry or rerun of the run reopens a task of this type in place (back to IN_PROGRESS,
   * re-evaluating what it holds) instead of giving it a new attempt (DO_WHILE, JOIN,
   * EXCLUSIVE_JOIN; docs/conductor-compat.md §4.7).
   */
  readonly reopenInPlace?: true;
  /**
   * A task of this type runs a child workflow it owns, named or given inline in its
   * `subWorkflowParam` (SUB_WORKFLOW): a test run may replace that definition. Its engine module
   * follows the child's end (TaskType.onChildEnded).
   */
  readonly childWorkflow?: true;
  /** Nothing follows a task of this type in its list (TERMINATE ends the run). */
  readonly endsFlow?: boolean;
  /** A task the signal routes may complete (WAIT, HUMAN, YIELD; docs/conductor-compat.md §1.1). */
  readonly signalTarget?: boolean;
  /** Registration checks of a workflow task of this type (Conductor's WorkflowTaskTypeConstraint). */
  validate?(task: Record<string, unknown>, path: string, issues: IssueSink): void;
}

/** A worker type: queued under its own name (or its task name, for SIMPLE). */
export function workerSpec(type: string): TaskTypeSpec {
  return { type, kind: 'worker', supported: true };
}

/** The child task lists of a workflow task, as its type declares them. */
export function childListsOf(spec: TaskTypeSpec, task: WorkflowTask): WorkflowTask[][] {
  const lists: WorkflowTask[][] = [];
  for (const field of spec.children ?? []) {
    const value = task[field.name];
    if (value === undefined || value === null) continue;
    if (field.shape === 'list') lists.push(value as WorkflowTask[]);
    else if (field.shape === 'lists') lists.push(...(value as WorkflowTask[][]));
    else lists.push(...Object.values(value as Record<string, WorkflowTask[]>));
  }
  return lists;
}

// ---- helpers for validate rules ----

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const inputOf = (task: Record<string, unknown>): Record<string, unknown> =>
  isObject(task.inputParameters) ? task.inputParameters : {};

/** The input template of the task's inline task definition, where some types may put their input. */
export const templateOf = (task: Record<string, unknown>): Record<string, unknown> => {
  const def = isObject(task.taskDefinition) ? task.taskDefinition : {};
  return isObject(def.inputTemplate) ? def.inputTemplate : {};
};

export const nonEmptyObject = (value: unknown): boolean => isObject(value) && Object.keys(value).length > 0;
export const nonEmptyArray = (value: unknown): boolean => Array.isArray(value) && value.length > 0;
export const present = (value: unknown): boolean => value !== undefined && value !== null && value !== '';
