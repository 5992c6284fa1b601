/**
 * The document `${...}` templates are read from (docs/conductor-compat.md §4.8.3): `workflow` plus
 * one entry per reference name, the latest live attempt, loop tasks under their base name.
 */
import { baseRef } from '../model/definition-graph.ts';
import type { WorkflowRecord } from '../model/execution.ts';
import type { TemplateContext } from './templating.ts';

export function templateContextOf(wf: WorkflowRecord, taskId?: string): TemplateContext {
  const tasks: Record<string, Record<string, unknown>> = {};
  for (const task of wf.tasks) {
    if (task.retried) continue;
    tasks[baseRef(task.referenceTaskName)] = {
      input: task.inputData,
      output: task.outputData,
      taskType: task.taskType,
      status: task.status,
      referenceTaskName: task.referenceTaskName,
      retryCount: task.retryCount,
      correlationId: task.correlationId,
      pollCount: task.pollCount,
      taskDefName: task.taskDefName,
      scheduledTime: task.scheduledTime,
      startTime: task.startTime,
      endTime: task.endTime,
      workflowInstanceId: task.workflowInstanceId,
      taskId: task.taskId,
      reasonForIncompletion: task.reasonForIncompletion,
      callbackAfterSeconds: task.callbackAfterSeconds,
      workerId: task.workerId,
      iteration: task.iteration,
    };
  }
  return {
    workflow: {
      input: wf.input,
      output: wf.output,
      status: wf.status,
      workflowId: wf.workflowId,
      parentWorkflowId: wf.parentWorkflowId,
      parentWorkflowTaskId: wf.parentWorkflowTaskId,
      workflowType: wf.workflowName,
      version: wf.workflowVersion,
      correlationId: wf.correlationId,
      reasonForIncompletion: wf.reasonForIncompletion,
      schemaVersion: 2,
      variables: wf.variables,
      taskToDomain: wf.taskToDomain,
    },
    tasks,
    taskId,
  };
}
