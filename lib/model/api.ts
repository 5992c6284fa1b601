/**
 * The execution objects the API answers (reference/conductor.md §2.5, §2.6), built field by field
 * from the stored records: a field is shown only when it is listed here, so internal bookkeeping
 * (revisions, the decider's working set, wake-ups, endedByEngine...) never leaks into the API.
 */
import type { TaskDef, WorkflowDef, WorkflowTask } from './definitions.ts';
import type { TaskRecord, TaskStatus, WorkflowRecord, WorkflowStatus } from './execution.ts';

export interface ApiTask {
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
  taskDefinition?: TaskDef;
  domain?: string;
  rateLimitPerFrequency: number;
  rateLimitFrequencyInSeconds: number;
  iteration: number;
  loopOverTask: boolean;
  subWorkflowId?: string;
  externalInputPayloadStoragePath?: string;
  externalOutputPayloadStoragePath?: string;
  queueWaitTime: number;
}

export interface ApiWorkflow {
  workflowId: string;
  workflowName: string;
  workflowVersion: number;
  status: WorkflowStatus;
  createTime: number;
  startTime: number;
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
  lastRetriedTime: number;
  reRunFromWorkflowId?: string;
  event?: string;
  externalInputPayloadStoragePath?: string;
  externalOutputPayloadStoragePath?: string;
  workflowDefinition: WorkflowDef;
  tasks: ApiTask[];
}

/** The run as the API shows it, with the given task rows (already through their output views). */
export function toApiWorkflow(record: WorkflowRecord, tasks: TaskRecord[] | undefined): ApiWorkflow {
  return {
    workflowId: record.workflowId,
    workflowName: record.workflowName,
    workflowVersion: record.workflowVersion,
    status: record.status,
    createTime: record.createTime,
    startTime: record.createTime,
    updateTime: record.updateTime,
    endTime: record.endTime,
    input: record.input,
    output: record.output,
    variables: record.variables,
    correlationId: record.correlationId,
    priority: record.priority,
    taskToDomain: record.taskToDomain,
    parentWorkflowId: record.parentWorkflowId,
    parentWorkflowTaskId: record.parentWorkflowTaskId,
    reasonForIncompletion: record.reasonForIncompletion,
    failedReferenceTaskNames: record.failedReferenceTaskNames,
    failedTaskNames: record.failedTaskNames,
    lastRetriedTime: record.lastRetriedTime,
    reRunFromWorkflowId: record.reRunFromWorkflowId,
    event: record.event,
    externalInputPayloadStoragePath: record.externalInputPayloadStoragePath,
    externalOutputPayloadStoragePath: record.externalOutputPayloadStoragePath,
    workflowDefinition: record.workflowDefinition,
    tasks: (tasks ?? []).map(toApiTask),
  };
}

export function toApiTask(task: TaskRecord): ApiTask {
  return {
    taskId: task.taskId,
    taskType: task.taskType,
    taskDefName: task.taskDefName,
    referenceTaskName: task.referenceTaskName,
    status: task.status,
    inputData: task.inputData,
    outputData: task.outputData,
    workflowInstanceId: task.workflowInstanceId,
    workflowType: task.workflowType,
    correlationId: task.correlationId,
    workflowPriority: task.workflowPriority,
    retryCount: task.retryCount,
    seq: task.seq,
    pollCount: task.pollCount,
    scheduledTime: task.scheduledTime,
    startTime: task.startTime,
    endTime: task.endTime,
    updateTime: task.updateTime,
    startDelayInSeconds: task.startDelayInSeconds,
    callbackAfterSeconds: task.callbackAfterSeconds,
    responseTimeoutSeconds: task.responseTimeoutSeconds,
    retried: task.retried,
    retriedTaskId: task.retriedTaskId,
    executed: task.executed,
    callbackFromWorker: task.callbackFromWorker,
    workerId: task.workerId,
    reasonForIncompletion: task.reasonForIncompletion,
    workflowTask: task.workflowTask,
    taskDefinition: task.workflowTask.taskDefinition,
    domain: task.domain,
    rateLimitPerFrequency: task.rateLimitPerFrequency,
    rateLimitFrequencyInSeconds: task.rateLimitFrequencyInSeconds,
    iteration: task.iteration,
    loopOverTask: task.iteration > 0,
    subWorkflowId: task.subWorkflowId,
    externalInputPayloadStoragePath: task.externalInputPayloadStoragePath,
    externalOutputPayloadStoragePath: task.externalOutputPayloadStoragePath,
    queueWaitTime: task.startTime > 0 ? Math.max(0, task.startTime - task.scheduledTime) : 0,
  };
}
