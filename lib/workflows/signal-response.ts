/**
 * The answers of synchronous execution (docs/conductor-compat.md §2.13): a `WorkflowRun` for
 * TARGET_WORKFLOW and BLOCKING_WORKFLOW, a `TaskRun` for BLOCKING_TASK and BLOCKING_TASK_INPUT.
 * Both carry the SignalResponse base: responseType, the target (top-level) run's id and status,
 * the request id, and `signalTimeout` (true when the wait ran out while the run went on).
 */
import { toApiTask } from '../model/api.ts';
import type { TaskRecord, WorkflowRecord } from '../model/execution.ts';

export const RETURN_STRATEGIES = [
  'TARGET_WORKFLOW',
  'BLOCKING_WORKFLOW',
  'BLOCKING_TASK',
  'BLOCKING_TASK_INPUT',
] as const;
export type ReturnStrategy = (typeof RETURN_STRATEGIES)[number];

export interface SignalBase {
  responseType: ReturnStrategy;
  target: WorkflowRecord;
  requestId: string;
  signalTimeout: boolean;
}

function base(b: SignalBase) {
  return {
    responseType: b.responseType,
    targetWorkflowId: b.target.workflowId,
    targetWorkflowStatus: b.target.status,
    requestId: b.requestId,
    signalTimeout: b.signalTimeout,
  };
}

/** A WorkflowRun: `run` is the target, or the (sub-)workflow holding the blocking task. */
export function workflowRun(
  b: SignalBase,
  run: WorkflowRecord,
  tasks: TaskRecord[],
): Record<string, unknown> {
  return {
    ...base(b),
    workflowId: run.workflowId,
    correlationId: run.correlationId,
    input: run.input,
    output: run.output,
    priority: run.priority,
    variables: run.variables,
    tasks: tasks.map(toApiTask),
    createTime: run.createTime,
    updateTime: run.updateTime,
    status: run.status,
  };
}

/** A TaskRun: the blocking task, with its own input and output, in the run that holds it. */
export function taskRun(b: SignalBase, task: TaskRecord, run: WorkflowRecord): Record<string, unknown> {
  return {
    ...base(b),
    workflowId: task.workflowInstanceId,
    correlationId: run.correlationId,
    input: task.inputData,
    output: task.outputData,
    taskType: task.taskType,
    taskId: task.taskId,
    referenceTaskName: task.referenceTaskName,
    retryCount: task.retryCount,
    taskDefName: task.taskDefName,
    retriedTaskId: task.retriedTaskId,
    workflowType: task.workflowType,
    reasonForIncompletion: task.reasonForIncompletion,
    priority: task.workflowPriority,
    variables: run.variables,
    tasks: [],
    createdBy: task.workerId,
    createTime: task.startTime,
    updateTime: task.updateTime,
    status: task.status,
  };
}
