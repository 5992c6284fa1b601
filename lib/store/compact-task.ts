/**
 * A task of a run record's working set in compact form (run-codec.ts). A 1,000-branch dynamic fork
 * keeps 1,000 open tasks in the record at once; written out whole (about 1 KB each) they outgrow a
 * DynamoDB item. The compact form leaves out what the record or the task itself already says:
 * - fields at their usual value (zeros, `false`, an empty output; DEFAULTS below);
 * - the run's id, name and priority, and times equal to `scheduledTime`;
 * - `taskDefName` when it is the workflow task's name;
 * - `visibleAt` (a worker task's queue entry) as its distance from `scheduledTime`, 0 for most;
 * - a workflow task a task type synthesized (dynamic fork branches, DYNAMIC): the record keeps each
 *   distinct one once (`shapes`, without its reference name) and the task only its index.
 * Decoding puts every field back; a decoded task equals the one encoded.
 */
import type { WorkflowTask } from '../model/definitions.ts';
import type { TaskRecord, WorkflowRecord } from '../model/execution.ts';

/** Fields left out when they hold this value. */
const DEFAULTS = {
  retryCount: 0,
  pollCount: 0,
  startTime: 0,
  endTime: 0,
  startDelayInSeconds: 0,
  callbackAfterSeconds: 0,
  responseTimeoutSeconds: 3600,
  retried: false,
  executed: false,
  callbackFromWorker: true,
  rateLimitPerFrequency: 0,
  rateLimitFrequencyInSeconds: 1,
  iteration: 0,
  waitTimeout: 0,
  rev: 0,
} as const satisfies Partial<TaskRecord>;
const DEFAULT_OF: Readonly<Record<string, unknown>> = DEFAULTS;

/** A compact task: a partial TaskRecord, plus `shape`, the index of its synthesized workflow task. */
export type CompactTask = Record<string, unknown>;

type Shape = Omit<WorkflowTask, 'taskReferenceName'>;

/**
 * The shape each decoded synthesized workflow task was made from. Workflow tasks are never changed
 * in place (a definition's are frozen; the engine replaces, never edits, the ones it makes), so a
 * decoded one is encoded again by the identity of its shape, without serializing it.
 */
const shapeOfDecoded = new WeakMap<WorkflowTask, Shape>();

/** A synthesized workflow task from its shape, remembered as made from it. */
export function fromShape(shape: Shape, taskReferenceName: string): WorkflowTask {
  const wt = { ...shape, taskReferenceName } as WorkflowTask;
  shapeOfDecoded.set(wt, shape);
  return wt;
}

/** Collects the distinct synthesized workflow tasks of one record while its tasks are encoded. */
export class ShapeTable {
  readonly shapes: Shape[] = [];
  private readonly byJson = new Map<string, number>();
  private readonly byShape = new Map<Shape, number>();

  indexOf(wt: WorkflowTask): number {
    const decoded = shapeOfDecoded.get(wt);
    if (decoded) return this.add(decoded, this.byShape, decoded);
    const { taskReferenceName: _ref, ...shape } = wt;
    return this.add(shape, this.byJson, JSON.stringify(shape));
  }

  private add<K>(shape: Shape, index: Map<K, number>, key: K): number {
    let at = index.get(key);
    if (at === undefined) {
      at = this.shapes.length;
      this.shapes.push(shape);
      index.set(key, at);
    }
    return at;
  }
}

/**
 * The compact form of a task. `ownTask` is its workflow task's fate: 'definition' (left out, put
 * back from the definition), 'shape' (kept once in the table) or 'inline' (kept whole).
 */
export function encodeTask(
  task: TaskRecord,
  run: WorkflowRecord,
  wtForm: 'definition' | 'shape' | 'inline',
  shapes: ShapeTable,
): CompactTask {
  const out: CompactTask = {};
  const fields = task as unknown as Record<string, unknown>;
  // Each field is tested before it is copied: deleting from the fresh object afterwards would turn
  // it into a slow dictionary-mode object, on every task of every commit.
  for (const key in fields) {
    const value = fields[key];
    if (value === undefined || key === 'workflowTask') continue;
    if (DEFAULT_OF[key] === value || impliedBy(key, value, task, run)) continue;
    out[key] = key === 'visibleAt' ? (value as number) - task.scheduledTime : value;
  }
  if (wtForm === 'shape') out.shape = shapes.indexOf(task.workflowTask);
  else if (wtForm === 'inline') out.workflowTask = task.workflowTask;
  return out;
}

/** Whether a field holds what the run or the task itself already says (left out, put back on read). */
function impliedBy(key: string, value: unknown, task: TaskRecord, run: WorkflowRecord): boolean {
  switch (key) {
    case 'outputData':
      return typeof value === 'object' && value !== null && isEmpty(value);
    case 'workflowInstanceId':
      return value === run.workflowId;
    case 'workflowType':
      return value === run.workflowName;
    case 'workflowPriority':
      return value === run.priority;
    case 'firstScheduledTime':
    case 'updateTime':
      // Left out when they equal `scheduledTime`.
      return value === task.scheduledTime;
    case 'taskDefName':
      return value === task.workflowTask.name;
    default:
      return false;
  }
}

/** A task back from its compact form, given its workflow task (from the definition, shape or itself). */
export function decodeTask(stored: CompactTask, run: WorkflowRecord, workflowTask: WorkflowTask): TaskRecord {
  const s = stored as Partial<TaskRecord>;
  const scheduledTime = s.scheduledTime as number;
  // Every field in one literal, in one order: every decoded task has one shape (and one hidden class).
  const task: TaskRecord = {
    taskId: s.taskId as string,
    taskType: s.taskType as string,
    taskDefName: s.taskDefName ?? workflowTask.name,
    referenceTaskName: s.referenceTaskName as string,
    status: s.status as TaskRecord['status'],
    inputData: s.inputData ?? {},
    outputData: s.outputData ?? {},
    workflowInstanceId: s.workflowInstanceId ?? run.workflowId,
    workflowType: s.workflowType ?? run.workflowName,
    workflowPriority: s.workflowPriority ?? run.priority,
    retryCount: s.retryCount ?? DEFAULTS.retryCount,
    seq: s.seq as number,
    pollCount: s.pollCount ?? DEFAULTS.pollCount,
    scheduledTime,
    startTime: s.startTime ?? DEFAULTS.startTime,
    endTime: s.endTime ?? DEFAULTS.endTime,
    updateTime: s.updateTime ?? scheduledTime,
    startDelayInSeconds: s.startDelayInSeconds ?? DEFAULTS.startDelayInSeconds,
    callbackAfterSeconds: s.callbackAfterSeconds ?? DEFAULTS.callbackAfterSeconds,
    responseTimeoutSeconds: s.responseTimeoutSeconds ?? DEFAULTS.responseTimeoutSeconds,
    retried: s.retried ?? DEFAULTS.retried,
    executed: s.executed ?? DEFAULTS.executed,
    callbackFromWorker: s.callbackFromWorker ?? DEFAULTS.callbackFromWorker,
    workflowTask,
    rateLimitPerFrequency: s.rateLimitPerFrequency ?? DEFAULTS.rateLimitPerFrequency,
    rateLimitFrequencyInSeconds: s.rateLimitFrequencyInSeconds ?? DEFAULTS.rateLimitFrequencyInSeconds,
    iteration: s.iteration ?? DEFAULTS.iteration,
    firstScheduledTime: s.firstScheduledTime ?? scheduledTime,
    waitTimeout: s.waitTimeout ?? DEFAULTS.waitTimeout,
    rev: s.rev ?? DEFAULTS.rev,
  };
  // The optional fields (correlationId, workerId, parentTaskId...), as stored.
  const all = task as unknown as Record<string, unknown>;
  for (const key in stored) if (!(key in all) && key !== 'shape') all[key] = stored[key];
  if (s.visibleAt !== undefined) task.visibleAt = scheduledTime + s.visibleAt;
  return task;
}

const isEmpty = (value: object): boolean => {
  for (const _ in value) return false;
  return true;
};
