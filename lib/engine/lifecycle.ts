/**
 * The decider's lifecycle policy (docs/conductor-compat.md §4.2, §4.3, §4.6): what a task that
 * reached a terminal status leads to (a retry, the flow going on past it, or the run's end), how the run
 * completes or fails, what a run that ends does with its open tasks, and when the run must be
 * decided again without an event. Its own module so RunContext keeps to the state of one decide
 * (what changed, what to start, what to delete) and the rules can be read in one place; like the
 * rest of the decider it does no I/O.
 */
import type { TaskDef, WorkflowTask } from '../model/definitions.ts';
import {
  isRetriableTask,
  isSuccessfulTask,
  isTerminalTask,
  type TaskRecord,
  type WorkflowStatus,
} from '../model/execution.ts';
import type { DecideEnv } from './decide-env.ts';
import { retryDelaySeconds } from './retry.ts';
import { allowedRetries } from './task-defs.ts';
import type { DecideContext } from './task-type.ts';
import { partialReadDeadline, workflowDeadline } from './timeouts.ts';

/** The part of a decide's run context the lifecycle rules work on (RunContext provides it). */
export interface LifecycleContext extends DecideContext {
  readonly env: DecideEnv;
  /** The run became terminal in this decide. */
  ended: boolean;
  governingDef(task: TaskRecord): { def: TaskDef; worker: boolean; adHoc: boolean };
}

/** A task reached a terminal status: retry it, let the run continue past it, or end the run. */
export async function processTerminal(run: LifecycleContext, task: TaskRecord): Promise<void> {
  const type = run.env.registry.get(task.workflowTask.type);
  if (!isSuccessfulTask(task.status)) {
    if (await retryTask(run, task)) return;
    if (task.workflowTask.optional) {
      run.setStatus(task, 'COMPLETED_WITH_ERRORS');
    } else if (!task.workflowTask.permissive) {
      failWorkflow(run, task);
      return;
    }
  }
  // `executed` is the decider's own bookkeeping, kept in the run record: no task-row write for it.
  task.executed = true;
  const next = type.next ? type.next(run, task) : defaultNext(run, task);
  for (const workflowTask of next ?? []) {
    await run.schedule({ workflowTask, iteration: task.iteration, parentTaskId: task.parentTaskId });
  }
}

/** Schedules a new attempt of a failed task when its definition allows one (or a retry of the run asked). */
async function retryTask(run: LifecycleContext, task: TaskRecord): Promise<boolean> {
  const wf = run.workflow;
  // A retry of the run (workflows/operations/retry.ts) asked for this attempt: no limit applies.
  const asked = wf.retryTaskIds?.includes(task.taskId) ?? false;
  if (asked) wf.retryTaskIds = wf.retryTaskIds?.filter((id) => id !== task.taskId);
  const type = run.env.registry.get(task.workflowTask.type);
  const { def } = run.governingDef(task);
  if (!asked) {
    if (type.operator || !isRetriableTask(task.status)) return false;
    if (task.retryCount >= allowedRetries(task.workflowTask, def)) return false;
    const total = def.totalTimeoutSeconds ?? 0;
    if (total > 0 && run.now - task.firstScheduledTime >= total * 1000) return false;
  }
  const delaySeconds = asked ? 0 : retryDelaySeconds(def, task.retryCount, run.env.random);
  task.retried = true;
  task.executed = true;
  run.touch(task);
  run.retire([task]);
  await run.schedule({
    workflowTask: task.workflowTask,
    iteration: task.iteration,
    parentTaskId: task.parentTaskId,
    retryOf: task,
    delaySeconds,
    givenInput: forkedInput(run, task),
  });
  return true;
}

/** The map a dynamic fork gave this task when it forked it, read again from the fork's marker. */
function forkedInput(run: LifecycleContext, task: TaskRecord): Record<string, unknown> | undefined {
  if (task.parentTaskId === undefined) return undefined;
  const fork = run.workflow.tasks.find((t) => t.taskId === task.parentTaskId);
  if (!fork) return undefined;
  const type = run.env.registry.get(fork.workflowTask.type);
  return type.forkedInput?.(fork, task.workflowTask.taskReferenceName, run.workflow.workflowDefinition);
}

/** Schedules the task a rerun starts again from (workflows/operations/rerun.ts), once. */
export async function scheduleRerun(run: LifecycleContext): Promise<void> {
  const from = run.workflow.rerunFrom;
  if (!from) return;
  run.workflow.rerunFrom = undefined;
  const workflowTask = run.graph.task(from.ref);
  if (!workflowTask) return;
  await run.schedule({
    workflowTask,
    iteration: from.iteration,
    parentTaskId: from.parentTaskId,
    input: from.input,
  });
}

/** Ends the run because of the task: TERMINATED for a canceled one, TIMED_OUT for a timed-out one, else FAILED. */
export function failWorkflow(run: LifecycleContext, task: TaskRecord): void {
  const wf = run.workflow;
  const status: WorkflowStatus =
    task.status === 'CANCELED' ? 'TERMINATED' : task.status === 'TIMED_OUT' ? 'TIMED_OUT' : 'FAILED';
  // New lists, not pushes: a record read from a store may share its lists with the stored one.
  if (!wf.failedReferenceTaskNames.includes(task.referenceTaskName))
    wf.failedReferenceTaskNames = [...wf.failedReferenceTaskNames, task.referenceTaskName];
  if (!wf.failedTaskNames.includes(task.taskDefName))
    wf.failedTaskNames = [...wf.failedTaskNames, task.taskDefName];
  wf.failedTaskId = task.taskId;
  endRun(
    run,
    status,
    `Task ${task.taskId} failed with status: ${task.status} and reason: '${task.reasonForIncompletion ?? ''}'`,
  );
}

/** Every task is done and nothing is left to schedule. */
export async function completeRun(run: LifecycleContext): Promise<void> {
  // Read from the run, not remembered by this decide: the permissive task usually failed in an
  // earlier decide than the one that reaches the end.
  const failed = run.workflow.tasks.find(
    (t) =>
      t.workflowTask.permissive &&
      !t.workflowTask.optional &&
      !t.retried &&
      isTerminalTask(t.status) &&
      !isSuccessfulTask(t.status),
  );
  if (failed) {
    failWorkflow(run, failed);
    return;
  }
  const output = computeOutput(run);
  const violation = await run.env.schemas?.workflowOutput(run.workflow.workflowDefinition, output);
  if (violation) {
    endRun(run, 'FAILED', violation.message);
    return;
  }
  endRun(run, 'COMPLETED', undefined, output);
}

/** Ends the run now: its open tasks are canceled, its output computed (or given), its wake-up cleared. */
export function endRun(
  run: LifecycleContext,
  status: WorkflowStatus,
  reason: string | undefined,
  terminateOutput?: Record<string, unknown>,
): void {
  const wf = run.workflow;
  wf.status = status;
  wf.endTime = run.now;
  wf.updateTime = run.now;
  if (reason !== undefined) wf.reasonForIncompletion = reason;
  cancelPending(run);
  wf.output = terminateOutput ?? computeOutput(run);
  wf.wakeAt = 0;
  wf.endedByEngine = true;
  run.ended = true;
}

/** Cancels every open task, through its type's `cancel` (a child workflow is terminated). */
export function cancelPending(run: LifecycleContext): void {
  for (const task of run.workflow.tasks) {
    if (isTerminalTask(task.status)) continue;
    run.setStatus(task, 'CANCELED');
    run.env.registry.get(task.workflowTask.type).cancel?.(run, task);
  }
}

/**
 * Sets the run's wake-up: the soonest of its own deadline, its next full read and, with
 * `taskWake`, each task's next deadline.
 */
export function computeWakeAt(run: LifecycleContext, taskWake?: (task: TaskRecord) => number): void {
  let soonest = workflowDeadline(run.workflow);
  const fullRead = partialReadDeadline(run.workflow);
  if (fullRead > 0 && (soonest === 0 || fullRead < soonest)) soonest = fullRead;
  if (taskWake) {
    for (const task of run.workflow.tasks) {
      const at = taskWake(task);
      if (at > 0 && (soonest === 0 || at < soonest)) soonest = at;
    }
  }
  // Keep a stored wake-up that is still ahead and no later than needed: waking early is
  // harmless (the decide finds nothing due and re-arms), while moving it on every commit
  // would rewrite the wake-up index each time (two index writes per commit on DynamoDB).
  const stored = run.workflow.wakeAt;
  const keep = stored > run.now && (soonest === 0 || stored <= soonest);
  run.workflow.wakeAt = keep ? stored : soonest;
}

/** The run's output: its definition's outputParameters resolved, else the last task's output (§4.6). */
function computeOutput(run: LifecycleContext): Record<string, unknown> {
  const def = run.workflow.workflowDefinition;
  if (Object.keys(def.outputParameters ?? {}).length > 0) {
    return run.resolve(def.outputParameters) as Record<string, unknown>;
  }
  const last = run.workflow.tasks.at(-1);
  return last ? { ...last.outputData } : {};
}

function defaultNext(run: LifecycleContext, task: TaskRecord): WorkflowTask[] {
  const next = run.graph.next(task.referenceTaskName);
  return next ? [next] : [];
}
