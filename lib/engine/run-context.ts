/**
 * The working state of one decide: the run being decided, what changed, and the effects to carry
 * out afterwards. Task-type modules see it through the DecideContext interface.
 */
import { type DefinitionGraph, graphOf, iterationRef } from '../model/definition-graph.ts';
import type { TaskDef, WorkflowTask } from '../model/definitions.ts';
import {
  isRetriableTask,
  isSuccessfulTask,
  isTerminalTask,
  type TaskRecord,
  type TaskStatus,
  type WorkflowRecord,
  type WorkflowStatus,
} from '../model/execution.ts';
import { taskIdOf } from '../model/ids.ts';
import type { DecideEnv } from './decide-env.ts';
import { domainCandidates, fallbackDomain } from './domains.ts';
import { retryDelaySeconds } from './retry.ts';
import { allowedRetries, effectiveTaskDef } from './task-defs.ts';
import type { ChildStart, DecideContext, ScheduleRequest } from './task-type.ts';
import { templateContextOf } from './template-context.ts';
import { resolveParameters, type TemplateContext } from './templating.ts';
import { partialReadDeadline, workflowDeadline } from './timeouts.ts';

export interface DecideResult {
  workflow: WorkflowRecord;
  /** Tasks created or changed by this decide (including ones that left the working set). */
  changedTasks: TaskRecord[];
  /** Ids of the tasks this decide created. */
  createdTaskIds: Set<string>;
  /** Worker tasks to put in their queues. */
  toQueue: TaskRecord[];
  /** Child workflows to start. */
  children: ChildStart[];
  /** Child workflows to terminate (their SUB_WORKFLOW task was canceled). */
  terminateChildren: { workflowId: string; reason: string }[];
  /** The run became terminal in this decide (and the engine ended it). */
  ended: boolean;
  /** The pass limit cut this decide short while sync tasks were still changing: decide again. */
  unfinished: boolean;
  /** Task rows to delete once the decision has committed (DO_WHILE keepLastN). */
  deleteTaskIds: string[];
}

export class RunContext implements DecideContext {
  readonly graph: DefinitionGraph;
  readonly now: number;
  ended = false;
  unfinished = false;
  private readonly changed = new Map<string, TaskRecord>();
  private readonly created = new Set<string>();
  private readonly children: ChildStart[] = [];
  private readonly terminateChildren: { workflowId: string; reason: string }[] = [];
  private readonly deleteTaskIds: string[] = [];

  constructor(
    readonly workflow: WorkflowRecord,
    readonly env: DecideEnv,
  ) {
    this.graph = graphOf(workflow.workflowDefinition);
    this.now = env.now;
  }

  // ---- DecideContext ----

  taskDef(workflowTask: WorkflowTask): TaskDef | undefined {
    // Registered definitions are embedded into the run's definition snapshot at start.
    return workflowTask.taskDefinition;
  }

  governingDef(task: TaskRecord): { def: TaskDef; worker: boolean; adHoc: boolean } {
    const worker = this.env.registry.get(task.workflowTask.type).kind === 'worker';
    return { ...effectiveTaskDef(task.workflowTask, worker), worker };
  }

  resolve(template: unknown, taskId?: string): unknown {
    return resolveParameters(template, this.templateContext(taskId));
  }

  createTask(request: ScheduleRequest, fields: Partial<TaskRecord> = {}): TaskRecord {
    const wf = this.workflow;
    const wt = request.workflowTask;
    const ref = iterationRef(wt.taskReferenceName, request.iteration);
    const retryOf = request.retryOf;
    const retryCount = retryOf ? retryOf.retryCount + 1 : 0;
    const taskId = taskIdOf(wf, ref, retryCount);
    const worker = this.env.registry.get(wt.type).kind === 'worker';
    const { def } = effectiveTaskDef(wt, worker);
    const input = request.input ? { ...request.input } : this.resolveInput(wt, def, taskId);
    wf.seq += 1;
    return {
      taskId,
      taskType: wt.type,
      taskDefName: wt.name,
      referenceTaskName: ref,
      status: 'SCHEDULED',
      inputData: input,
      outputData: {},
      workflowInstanceId: wf.workflowId,
      workflowType: wf.workflowName,
      correlationId: wf.correlationId,
      workflowPriority: wf.priority,
      retryCount,
      seq: wf.seq,
      pollCount: 0,
      scheduledTime: this.now,
      startTime: 0,
      endTime: 0,
      updateTime: this.now,
      startDelayInSeconds: 0,
      callbackAfterSeconds: 0,
      responseTimeoutSeconds: def.responseTimeoutSeconds,
      retried: false,
      retriedTaskId: retryOf?.taskId,
      executed: false,
      callbackFromWorker: true,
      reasonForIncompletion: retryOf?.reasonForIncompletion,
      workflowTask: wt,
      domain: worker ? this.domainFor(wt) : undefined,
      rateLimitPerFrequency: def.rateLimitPerFrequency ?? 0,
      rateLimitFrequencyInSeconds: def.rateLimitFrequencyInSeconds ?? 1,
      iteration: request.iteration,
      parentTaskId: request.parentTaskId,
      firstScheduledTime: retryOf?.firstScheduledTime ?? this.now,
      waitTimeout: 0,
      rev: 0,
      ...fields,
    };
  }

  async schedule(request: ScheduleRequest): Promise<TaskRecord[]> {
    const ref = iterationRef(request.workflowTask.taskReferenceName, request.iteration);
    // Scheduling is by reference name: one live task per reference (§4.2).
    const existing = request.retryOf ? undefined : this.taskByRef(ref);
    if (existing) {
      if (isSkippedAhead(existing)) await this.passSkipped(existing, request);
      return [];
    }
    const type = this.env.registry.get(request.workflowTask.type);
    const at = this.workflow.tasks.length;
    const records = await type.schedule(this, request);
    // A container (SWITCH, FORK) schedules its children before it returns its own record; the
    // record goes in ahead of them, so the working set stays in seq order (the last task gives
    // the run's default output, §4.6, and passes visit tasks in that order).
    this.workflow.tasks.splice(at, 0, ...records);
    for (const record of records) {
      this.created.add(record.taskId);
      this.touch(record);
      await this.checkInput(record);
    }
    return records;
  }

  /** A new task whose input breaks its enforced schema fails terminally before any worker sees it. */
  private async checkInput(task: TaskRecord): Promise<void> {
    if (!this.env.schemas || isTerminalTask(task.status)) return;
    const violation = await this.env.schemas.taskInput(this.taskDef(task.workflowTask), task.inputData);
    if (violation) this.setStatus(task, 'FAILED_WITH_TERMINAL_ERROR', violation.message);
  }

  /**
   * The flow reached a task skipped through the API (skiptask, §4.7): it counts as done, its
   * supplied output is what `${ref.output}` reads, and the flow goes on to what follows it.
   */
  private async passSkipped(task: TaskRecord, request: ScheduleRequest): Promise<void> {
    task.executed = true;
    const next = this.graph.next(task.referenceTaskName);
    if (next)
      await this.schedule({
        workflowTask: next,
        iteration: request.iteration,
        parentTaskId: request.parentTaskId,
      });
  }

  touch(task: TaskRecord): void {
    this.changed.set(task.taskId, task);
  }

  setStatus(task: TaskRecord, status: TaskStatus, reason?: string): void {
    task.status = status;
    if (reason !== undefined) task.reasonForIncompletion = reason;
    if (isTerminalTask(status) && task.endTime === 0) task.endTime = this.now;
    if (status === 'IN_PROGRESS' && task.startTime === 0) task.startTime = this.now;
    task.updateTime = this.now;
    this.touch(task);
  }

  taskByRef(ref: string): TaskRecord | undefined {
    for (let i = this.workflow.tasks.length - 1; i >= 0; i--) {
      const task = this.workflow.tasks[i] as TaskRecord;
      if (task.referenceTaskName === ref && !task.retried) return task;
    }
    return undefined;
  }

  retire(tasks: TaskRecord[]): void {
    const ids = new Set(tasks.map((t) => t.taskId));
    this.workflow.tasks = this.workflow.tasks.filter((t) => !ids.has(t.taskId));
  }

  decideAgain(): void {
    this.unfinished = true;
  }

  deleteRows(tasks: TaskRecord[]): void {
    this.retire(tasks);
    const wf = this.workflow;
    for (const task of tasks) {
      // Attempts a retry superseded left the working set earlier; their ids derive from the attempt.
      for (let attempt = 0; attempt < task.retryCount; attempt++)
        this.deleteTaskIds.push(taskIdOf(wf, task.referenceTaskName, attempt));
      this.deleteTaskIds.push(task.taskId);
    }
  }

  startChild(child: ChildStart): void {
    this.children.push(child);
  }

  endWorkflow(
    status: 'COMPLETED' | 'FAILED' | 'TERMINATED',
    reason: string | undefined,
    output?: Record<string, unknown>,
  ): void {
    this.end(status, reason, output);
  }

  // ---- decider steps ----

  /** A task reached a terminal status: retry it, let the run continue past it, or end the run. */
  async processTerminal(task: TaskRecord): Promise<void> {
    const type = this.env.registry.get(task.workflowTask.type);
    if (!isSuccessfulTask(task.status)) {
      if (await this.retry(task)) return;
      if (task.workflowTask.optional) {
        this.setStatus(task, 'COMPLETED_WITH_ERRORS');
      } else if (!task.workflowTask.permissive) {
        this.failWorkflow(task);
        return;
      }
    }
    // `executed` is the decider's own bookkeeping, kept in the run record: no task-row write for it.
    task.executed = true;
    const next = type.next ? type.next(this, task) : defaultNext(this, task);
    for (const workflowTask of next ?? []) {
      await this.schedule({ workflowTask, iteration: task.iteration, parentTaskId: task.parentTaskId });
    }
  }

  private async retry(task: TaskRecord): Promise<boolean> {
    const wf = this.workflow;
    // A retry of the run (workflows/operations/retry.ts) asked for this attempt: no limit applies.
    const asked = wf.retryTaskIds?.includes(task.taskId) ?? false;
    if (asked) wf.retryTaskIds = wf.retryTaskIds?.filter((id) => id !== task.taskId);
    const type = this.env.registry.get(task.workflowTask.type);
    const { def } = this.governingDef(task);
    if (!asked) {
      if (type.operator || !isRetriableTask(task.status)) return false;
      if (task.retryCount >= allowedRetries(task.workflowTask, def)) return false;
      const total = def.totalTimeoutSeconds ?? 0;
      if (total > 0 && this.now - task.firstScheduledTime >= total * 1000) return false;
    }
    const delaySeconds = asked ? 0 : retryDelaySeconds(def, task.retryCount, this.env.random);
    task.retried = true;
    task.executed = true;
    this.touch(task);
    this.retire([task]);
    await this.schedule({
      workflowTask: task.workflowTask,
      iteration: task.iteration,
      parentTaskId: task.parentTaskId,
      retryOf: task,
      delaySeconds,
    });
    return true;
  }

  /** Schedules the task a rerun starts again from (workflows/operations/rerun.ts), once. */
  async rerun(): Promise<void> {
    const from = this.workflow.rerunFrom;
    if (!from) return;
    this.workflow.rerunFrom = undefined;
    const workflowTask = this.graph.task(from.ref);
    if (!workflowTask) return;
    await this.schedule({
      workflowTask,
      iteration: from.iteration,
      parentTaskId: from.parentTaskId,
      input: from.input,
    });
  }

  failWorkflow(task: TaskRecord): void {
    const wf = this.workflow;
    const status: WorkflowStatus =
      task.status === 'CANCELED' ? 'TERMINATED' : task.status === 'TIMED_OUT' ? 'TIMED_OUT' : 'FAILED';
    if (!wf.failedReferenceTaskNames.includes(task.referenceTaskName))
      wf.failedReferenceTaskNames.push(task.referenceTaskName);
    if (!wf.failedTaskNames.includes(task.taskDefName)) wf.failedTaskNames.push(task.taskDefName);
    wf.failedTaskId = task.taskId;
    this.end(
      status,
      `Task ${task.taskId} failed with status: ${task.status} and reason: '${task.reasonForIncompletion ?? ''}'`,
    );
  }

  /** Every task is done and nothing is left to schedule. */
  async complete(): Promise<void> {
    // Read from the run, not remembered by this decide: the permissive task usually failed in an
    // earlier decide than the one that reaches the end.
    const failed = this.workflow.tasks.find(
      (t) =>
        t.workflowTask.permissive &&
        !t.workflowTask.optional &&
        !t.retried &&
        isTerminalTask(t.status) &&
        !isSuccessfulTask(t.status),
    );
    if (failed) {
      this.failWorkflow(failed);
      return;
    }
    const output = this.computeOutput();
    const violation = await this.env.schemas?.workflowOutput(this.workflow.workflowDefinition, output);
    if (violation) {
      this.end('FAILED', violation.message);
      return;
    }
    this.end('COMPLETED', undefined, output);
  }

  end(status: WorkflowStatus, reason: string | undefined, terminateOutput?: Record<string, unknown>): void {
    const wf = this.workflow;
    wf.status = status;
    wf.endTime = this.now;
    wf.updateTime = this.now;
    if (reason !== undefined) wf.reasonForIncompletion = reason;
    this.cancelPending();
    wf.output = terminateOutput ?? this.computeOutput();
    wf.wakeAt = 0;
    wf.endedByEngine = true;
    this.ended = true;
  }

  cancelPending(): void {
    for (const task of this.workflow.tasks) {
      if (isTerminalTask(task.status)) continue;
      this.setStatus(task, 'CANCELED');
      this.env.registry.get(task.workflowTask.type).cancel?.(this, task);
    }
  }

  /** Marks a child workflow for termination (SUB_WORKFLOW cancel). */
  terminateChild(workflowId: string, reason: string): void {
    this.terminateChildren.push({ workflowId, reason });
  }

  computeWakeAt(taskWake?: (run: RunContext, task: TaskRecord) => number): void {
    let soonest = workflowDeadline(this.workflow);
    const fullRead = partialReadDeadline(this.workflow);
    if (fullRead > 0 && (soonest === 0 || fullRead < soonest)) soonest = fullRead;
    if (taskWake) {
      for (const task of this.workflow.tasks) {
        const at = taskWake(this, task);
        if (at > 0 && (soonest === 0 || at < soonest)) soonest = at;
      }
    }
    // Keep a stored wake-up that is still ahead and no later than needed: waking early is
    // harmless (the decide finds nothing due and re-arms), while moving it on every commit
    // would rewrite the wake-up index each time (two index writes per commit on DynamoDB).
    const stored = this.workflow.wakeAt;
    const keep = stored > this.now && (soonest === 0 || stored <= soonest);
    this.workflow.wakeAt = keep ? stored : soonest;
  }

  result(): DecideResult {
    const changedTasks = [...this.changed.values()];
    return {
      workflow: this.workflow,
      changedTasks,
      createdTaskIds: this.created,
      toQueue: changedTasks.filter(
        (t) =>
          this.created.has(t.taskId) &&
          t.status === 'SCHEDULED' &&
          this.env.registry.get(t.workflowTask.type).kind === 'worker',
      ),
      children: this.children,
      terminateChildren: this.terminateChildren,
      ended: this.ended,
      unfinished: this.unfinished && !this.ended,
      deleteTaskIds: this.deleteTaskIds,
    };
  }

  // ---- helpers ----

  private computeOutput(): Record<string, unknown> {
    const def = this.workflow.workflowDefinition;
    if (Object.keys(def.outputParameters ?? {}).length > 0) {
      return this.resolve(def.outputParameters) as Record<string, unknown>;
    }
    const last = this.workflow.tasks.at(-1);
    return last ? { ...last.outputData } : {};
  }

  private resolveInput(wt: WorkflowTask, def: TaskDef, taskId: string): Record<string, unknown> {
    const input = (this.resolve(wt.inputParameters ?? {}, taskId) ?? {}) as Record<string, unknown>;
    for (const [key, value] of Object.entries(def.inputTemplate ?? {})) {
      if (input[key] === undefined || input[key] === null) input[key] = value;
    }
    return input;
  }

  private domainFor(wt: WorkflowTask): string | undefined {
    // The executor refines a comma list with live poll data before the task is stored.
    return fallbackDomain(domainCandidates(this.workflow.taskToDomain, wt.name));
  }

  templateContext(taskId?: string): TemplateContext {
    return templateContextOf(this.workflow, taskId);
  }
}

/**
 * A SKIPPED row the flow has not reached yet: the decider leaves it alone until schedule() meets
 * its reference, and it does not hold up the run's completion (it may sit in a branch not taken).
 */
export function isSkippedAhead(task: TaskRecord): boolean {
  return task.status === 'SKIPPED' && !task.executed;
}

function defaultNext(run: RunContext, task: TaskRecord): WorkflowTask[] {
  const next = run.graph.next(task.referenceTaskName);
  return next ? [next] : [];
}
