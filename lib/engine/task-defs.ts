/**
 * The task definition that governs a task: inline on the workflow task, else registered, else
 * Conductor's ad-hoc defaults (docs/conductor-compat.md §1.2): worker tasks retry 3 times, 60 s
 * apart, with a one-hour response timeout; system tasks never retry and never time out.
 */
import type { TaskDef, WorkflowTask } from '../model/definitions.ts';

export function adHocTaskDef(name: string, worker: boolean): TaskDef {
  return {
    name,
    retryCount: worker ? 3 : 0,
    retryLogic: 'FIXED',
    retryDelaySeconds: 60,
    backoffScaleFactor: 1,
    timeoutSeconds: 0,
    timeoutPolicy: 'TIME_OUT_WF',
    responseTimeoutSeconds: worker ? 3600 : 0,
    rateLimitPerFrequency: 0,
    rateLimitFrequencyInSeconds: 1,
  };
}

/** Registered definitions are embedded into the run's definition snapshot when it starts. */
export function effectiveTaskDef(task: WorkflowTask, worker: boolean): { def: TaskDef; adHoc: boolean } {
  if (task.taskDefinition) return { def: task.taskDefinition, adHoc: false };
  return { def: adHocTaskDef(task.name, worker), adHoc: true };
}

/** Retries allowed for a workflow task: its own retryCount, else the definition's. */
export function allowedRetries(task: WorkflowTask, def: TaskDef): number {
  return task.retryCount ?? def.retryCount ?? 0;
}
