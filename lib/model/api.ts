/**
 * The execution objects the API answers (docs/conductor-compat.md §2.5, §2.6), built field by field
 * from the stored records: a field is shown only when it is listed here, so internal bookkeeping
 * (revisions, the decider's working set, wake-ups, endedByEngine...) never leaks into the API.
 */
import type { TaskDef } from './definitions.ts';
import type { TaskRecord, WorkflowRecord } from './execution.ts';

/** The task fields the API shows as stored: the allow-list. */
const TASK_FIELDS = [
  'taskId',
  'taskType',
  'taskDefName',
  'referenceTaskName',
  'status',
  'inputData',
  'outputData',
  'workflowInstanceId',
  'workflowType',
  'correlationId',
  'workflowPriority',
  'retryCount',
  'seq',
  'pollCount',
  'scheduledTime',
  'startTime',
  'endTime',
  'updateTime',
  'startDelayInSeconds',
  'callbackAfterSeconds',
  'responseTimeoutSeconds',
  'retried',
  'retriedTaskId',
  'executed',
  'callbackFromWorker',
  'workerId',
  'reasonForIncompletion',
  'workflowTask',
  'domain',
  'rateLimitPerFrequency',
  'rateLimitFrequencyInSeconds',
  'iteration',
  'subWorkflowId',
  'externalInputPayloadStoragePath',
  'externalOutputPayloadStoragePath',
] as const satisfies readonly (keyof TaskRecord)[];

/** The run fields the API shows as stored: the allow-list. */
const WORKFLOW_FIELDS = [
  'workflowId',
  'workflowName',
  'workflowVersion',
  'status',
  'createTime',
  'updateTime',
  'endTime',
  'input',
  'output',
  'variables',
  'correlationId',
  'priority',
  'taskToDomain',
  'parentWorkflowId',
  'parentWorkflowTaskId',
  'reasonForIncompletion',
  'failedReferenceTaskNames',
  'failedTaskNames',
  'lastRetriedTime',
  'reRunFromWorkflowId',
  'event',
  'idempotencyKey',
  'idempotencyStrategy',
  'externalInputPayloadStoragePath',
  'externalOutputPayloadStoragePath',
  'workflowDefinition',
] as const satisfies readonly (keyof WorkflowRecord)[];

export type ApiTask = Pick<TaskRecord, (typeof TASK_FIELDS)[number]> & {
  taskDefinition?: TaskDef;
  loopOverTask: boolean;
  queueWaitTime: number;
};

export type ApiWorkflow = Pick<WorkflowRecord, (typeof WORKFLOW_FIELDS)[number]> & {
  startTime: number;
  tasks: ApiTask[];
};

/** The listed fields of a record, and nothing else. */
function pick<T extends object, K extends keyof T>(record: T, fields: readonly K[]): Pick<T, K> {
  const view = {} as Pick<T, K>;
  for (const field of fields) view[field] = record[field];
  return view;
}

/** The run as the API shows it, with the given task rows (already through their output views). */
export function toApiWorkflow(record: WorkflowRecord, tasks: TaskRecord[] | undefined): ApiWorkflow {
  return {
    ...pick(record, WORKFLOW_FIELDS),
    startTime: record.createTime,
    tasks: (tasks ?? []).map(toApiTask),
  };
}

export function toApiTask(task: TaskRecord): ApiTask {
  return {
    ...pick(task, TASK_FIELDS),
    taskDefinition: task.workflowTask.taskDefinition,
    loopOverTask: task.iteration > 0,
    queueWaitTime: task.startTime > 0 ? Math.max(0, task.startTime - task.scheduledTime) : 0,
  };
}
