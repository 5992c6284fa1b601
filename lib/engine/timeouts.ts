/**
 * Timeout checks and wake-up times (docs/conductor-compat.md §4.5). Checks run when the decider runs;
 * the wake-up time stored with the run makes sure it runs when the nearest deadline passes.
 */
import type { TaskDef } from '../model/definitions.ts';
import { isTerminalTask, type TaskRecord, type TaskStatus, type WorkflowRecord } from '../model/execution.ts';
import type { DecideEnv } from './decide-env.ts';

/** The part of a decide's run context the timeout rules use (RunContext provides it). */
export interface TimeoutContext {
  readonly now: number;
  readonly env: DecideEnv;
  governingDef(task: TaskRecord): { def: TaskDef; worker: boolean; adHoc: boolean };
  setStatus(task: TaskRecord, status: TaskStatus, reason?: string): void;
  failWorkflow(task: TaskRecord): void;
}

export function workflowTimedOut(wf: WorkflowRecord, now: number): boolean {
  const def = wf.workflowDefinition;
  if (def.timeoutSeconds <= 0 || def.timeoutPolicy !== 'TIME_OUT_WF') return false;
  return now - (wf.lastRetriedTime || wf.createTime) >= def.timeoutSeconds * 1000;
}

/**
 * How long decides may read only the rows their requests name (WorkflowRecord.partialSince) before
 * one reads every open row again: the bound on how long a request lost between a row's write and
 * the decide it asks for (a crash), or a child's end its parent was not told, goes unnoticed. The
 * run's wake-up comes by then (partialReadDeadline), so the bound holds with no further request.
 */
export const FULL_READ_AFTER_MS = 60_000;

/** When a run whose decides have read only named rows must be decided reading every row; 0: none. */
export function partialReadDeadline(wf: WorkflowRecord): number {
  return wf.partialSince === undefined ? 0 : wf.partialSince + FULL_READ_AFTER_MS;
}

export function workflowDeadline(wf: WorkflowRecord): number {
  const def = wf.workflowDefinition;
  if (def.timeoutSeconds <= 0 || def.timeoutPolicy !== 'TIME_OUT_WF') return 0;
  return (wf.lastRetriedTime || wf.createTime) + def.timeoutSeconds * 1000;
}

interface Deadline {
  at: number;
  /** The response timeout times out whatever the policy (§4.5). */
  alwaysTimeOut: boolean;
  reason: string;
}

function deadlines(task: TaskRecord, def: TaskDef, worker: boolean): Deadline[] {
  const out: Deadline[] = [];
  if ((def.totalTimeoutSeconds ?? 0) > 0) {
    out.push({
      at: task.firstScheduledTime + (def.totalTimeoutSeconds as number) * 1000,
      alwaysTimeOut: false,
      reason: `Task ${task.referenceTaskName} exceeded its total timeout of ${def.totalTimeoutSeconds} seconds`,
    });
  }
  // Counted from the first poll whatever the status since: a worker that hands the task back with
  // IN_PROGRESS and a callback leaves it SCHEDULED, and must not escape the limit that way (§4.5).
  if (def.timeoutSeconds > 0 && task.startTime > 0) {
    out.push({
      at: task.startTime + def.timeoutSeconds * 1000,
      alwaysTimeOut: false,
      reason: `Task timed out after ${def.timeoutSeconds} seconds. Timeout configured as ${def.timeoutSeconds} seconds.`,
    });
  }
  if ((def.pollTimeoutSeconds ?? 0) > 0 && task.status === 'SCHEDULED' && worker) {
    const since = Math.max(task.scheduledTime, task.updateTime) + task.callbackAfterSeconds * 1000;
    out.push({
      at: since + (def.pollTimeoutSeconds as number) * 1000,
      alwaysTimeOut: false,
      reason: `Task poll timed out after ${def.pollTimeoutSeconds} seconds`,
    });
  }
  if (worker && task.status === 'IN_PROGRESS' && def.responseTimeoutSeconds > 0) {
    out.push({
      at: task.updateTime + def.responseTimeoutSeconds * 1000,
      alwaysTimeOut: true,
      reason: `responseTimeout: ${def.responseTimeoutSeconds} exceeded for task ${task.referenceTaskName}`,
    });
  }
  return out;
}

/** Times the task out when a deadline has passed; returns true when it changed the task or the run. */
export function checkTaskTimeouts(run: TimeoutContext, task: TaskRecord): boolean {
  const { def, worker, adHoc } = run.governingDef(task);
  if (adHoc && !worker) return false;
  for (const deadline of deadlines(task, def, worker)) {
    if (run.now < deadline.at) continue;
    if (!deadline.alwaysTimeOut && def.timeoutPolicy === 'ALERT_ONLY') continue;
    run.setStatus(task, 'TIMED_OUT', deadline.reason);
    if (!deadline.alwaysTimeOut && def.timeoutPolicy === 'TIME_OUT_WF') run.failWorkflow(task);
    return true;
  }
  return false;
}

/** The soonest moment the decider must look at this task again, or 0. */
export function taskWakeAt(run: TimeoutContext, task: TaskRecord): number {
  if (isTerminalTask(task.status)) return 0;
  const { def, worker, adHoc } = run.governingDef(task);
  let soonest = 0;
  if (!(adHoc && !worker)) {
    for (const d of deadlines(task, def, worker)) {
      if (d.alwaysTimeOut || def.timeoutPolicy !== 'ALERT_ONLY') soonest = sooner(soonest, d.at);
    }
    if (worker && task.status === 'SCHEDULED') {
      // A poll claims the task without a decide, so nothing would arm the response timeout of a
      // worker that then dies. Wake when the earliest such deadline could come due (first possible
      // poll + timeout); that decide re-arms at the real deadline, so the timeout fires on time.
      const pollable = Math.max(
        run.now,
        Math.max(task.scheduledTime, task.updateTime) + task.callbackAfterSeconds * 1000,
      );
      if (def.responseTimeoutSeconds > 0)
        soonest = sooner(soonest, pollable + def.responseTimeoutSeconds * 1000);
      if (def.timeoutSeconds > 0 && task.startTime === 0 && def.timeoutPolicy !== 'ALERT_ONLY')
        soonest = sooner(soonest, pollable + def.timeoutSeconds * 1000);
    }
  }
  const type = run.env.registry.get(task.workflowTask.type);
  return type.wakeAt ? sooner(soonest, type.wakeAt(task)) : soonest;
}

/** The sooner of two wake-up times, 0 meaning none. */
const sooner = (soonest: number, at: number): number =>
  at > 0 && (soonest === 0 || at < soonest) ? at : soonest;
