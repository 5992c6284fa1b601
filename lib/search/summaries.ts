/**
 * Search rows (docs/conductor-compat.md §2.12): WorkflowSummary and TaskSummary with ISO 8601 UTC
 * times, `input`/`output` as JSON strings; and the searchable documents the filter evaluates.
 */
import type { TaskRecord, WorkflowRecord } from '../model/execution.ts';
import type { SearchDoc } from './evaluate.ts';

/** What a run's search document is made of: its own fields, not its tasks or definition. */
export type RunFields = Omit<WorkflowRecord, 'tasks' | 'workflowDefinition'>;
/** What a task's search document is made of: its own fields, not its workflow task. */
export type TaskFields = Omit<TaskRecord, 'workflowTask'>;

const iso = (ms: number): string | undefined => (ms > 0 ? new Date(ms).toISOString() : undefined);
const ended = (status: string) => status !== 'RUNNING' && status !== 'PAUSED';

export interface WorkflowSummary {
  workflowType: string;
  version: number;
  workflowId: string;
  correlationId?: string;
  startTime?: string;
  updateTime?: string;
  endTime?: string;
  status: string;
  input: string;
  output: string;
  reasonForIncompletion?: string;
  executionTime: number;
  event?: string;
  /** The run's idempotency key (Orkes' WorkflowSummary carries it), when it was started with one. */
  idempotencyKey?: string;
  failedReferenceTaskNames: string;
  failedTaskNames: string[];
  externalInputPayloadStoragePath?: string;
  externalOutputPayloadStoragePath?: string;
  priority: number;
  taskToDomain: Record<string, string>;
  parentWorkflowId: string;
}

export function workflowSummary(r: WorkflowRecord): WorkflowSummary {
  const done = ended(r.status) && r.endTime > 0;
  return {
    workflowType: r.workflowName,
    version: r.workflowVersion,
    workflowId: r.workflowId,
    correlationId: r.correlationId,
    startTime: iso(r.createTime),
    updateTime: iso(r.updateTime),
    endTime: done ? iso(r.endTime) : undefined,
    status: r.status,
    input: JSON.stringify(r.input ?? {}),
    output: JSON.stringify(r.output ?? {}),
    reasonForIncompletion: r.reasonForIncompletion,
    executionTime: done ? r.endTime - r.createTime : 0,
    event: r.event,
    idempotencyKey: r.idempotencyKey,
    failedReferenceTaskNames: r.failedReferenceTaskNames.join(','),
    failedTaskNames: r.failedTaskNames,
    externalInputPayloadStoragePath: r.externalInputPayloadStoragePath,
    externalOutputPayloadStoragePath: r.externalOutputPayloadStoragePath,
    priority: r.priority,
    taskToDomain: r.taskToDomain,
    parentWorkflowId: r.parentWorkflowId ?? '',
  };
}

export interface TaskSummary {
  workflowId: string;
  workflowType: string;
  correlationId?: string;
  scheduledTime?: string;
  startTime?: string;
  updateTime?: string;
  endTime?: string;
  status: string;
  reasonForIncompletion?: string;
  executionTime: number;
  queueWaitTime: number;
  taskDefName: string;
  taskType: string;
  input: string;
  output: string;
  taskId: string;
  externalInputPayloadStoragePath?: string;
  externalOutputPayloadStoragePath?: string;
  workflowPriority: number;
  domain?: string;
}

export function taskSummary(t: TaskRecord): TaskSummary {
  return {
    workflowId: t.workflowInstanceId,
    workflowType: t.workflowType,
    correlationId: t.correlationId,
    scheduledTime: iso(t.scheduledTime),
    startTime: iso(t.startTime),
    updateTime: iso(t.updateTime),
    endTime: iso(t.endTime),
    status: t.status,
    reasonForIncompletion: t.reasonForIncompletion,
    executionTime: t.endTime > 0 && t.startTime > 0 ? t.endTime - t.startTime : 0,
    queueWaitTime: t.startTime > 0 && t.scheduledTime > 0 ? t.startTime - t.scheduledTime : 0,
    taskDefName: t.taskDefName,
    taskType: t.taskType,
    input: JSON.stringify(t.inputData ?? {}),
    output: JSON.stringify(t.outputData ?? {}),
    taskId: t.taskId,
    externalInputPayloadStoragePath: t.externalInputPayloadStoragePath,
    externalOutputPayloadStoragePath: t.externalOutputPayloadStoragePath,
    workflowPriority: t.workflowPriority,
    domain: t.domain,
  };
}

export function workflowDoc(r: RunFields): SearchDoc {
  const done = ended(r.status) && r.endTime > 0;
  return {
    workflowId: r.workflowId,
    workflowType: r.workflowName,
    version: r.workflowVersion,
    correlationId: r.correlationId,
    status: r.status,
    reasonForIncompletion: r.reasonForIncompletion,
    event: r.event,
    parentWorkflowId: r.parentWorkflowId ?? '',
    startTime: r.createTime,
    updateTime: r.updateTime,
    endTime: done ? r.endTime : undefined,
    executionTime: done ? r.endTime - r.createTime : 0,
    priority: r.priority,
  };
}

export function taskDoc(t: TaskFields): SearchDoc {
  return {
    taskId: t.taskId,
    taskType: t.taskType,
    taskDefName: t.taskDefName,
    referenceTaskName: t.referenceTaskName,
    workflowId: t.workflowInstanceId,
    workflowType: t.workflowType,
    workflowName: t.workflowType,
    correlationId: t.correlationId,
    status: t.status,
    reasonForIncompletion: t.reasonForIncompletion,
    domain: t.domain,
    scheduledTime: t.scheduledTime,
    startTime: t.startTime,
    updateTime: t.updateTime,
    endTime: t.endTime > 0 ? t.endTime : undefined,
    executionTime: t.endTime > 0 && t.startTime > 0 ? t.endTime - t.startTime : 0,
    queueWaitTime: t.startTime > 0 && t.scheduledTime > 0 ? t.startTime - t.scheduledTime : 0,
  };
}

/** The text a bare free-text term is matched against (evaluate.ts; the OpenSearch `text` field). */
export const workflowText = (r: RunFields): string =>
  [
    r.workflowId,
    r.workflowName,
    r.correlationId ?? '',
    r.status,
    r.reasonForIncompletion ?? '',
    JSON.stringify(r.input),
    JSON.stringify(r.output),
  ].join(' ');

export const taskText = (t: TaskFields): string =>
  [
    t.taskId,
    t.taskType,
    t.taskDefName,
    t.referenceTaskName,
    t.workflowInstanceId,
    t.workflowType,
    t.status,
    t.reasonForIncompletion ?? '',
    JSON.stringify(t.inputData),
    JSON.stringify(t.outputData),
  ].join(' ');
