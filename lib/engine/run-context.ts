/**
 * The working state of one decide: the run being decided, what changed, and the effects to carry
 * out afterwards. Task-type modules see it through the DecideContext interface; the decider's
 * rules for what a task's end leads to and how the run ends work on it from lib/engine/lifecycle.ts,
 * so this module keeps to scheduling and bookkeeping. § numbers are docs/conductor-compat.md's.
 */
import { childLists, DefinitionGraph, graphOf, iterationRef } from '../model/definition-graph.ts';
import type { TaskDef, WorkflowTask } from '../model/definitions.ts';
import { isTerminalTask, type TaskRecord, type TaskStatus, type WorkflowRecord } from '../model/execution.ts';
import { taskIdOf } from '../model/ids.ts';
import type { DecideEnv } from './decide-env.ts';
import { domainCandidates, fallbackDomain } from './domains.ts';
import { endRun, failWorkflow, type LifecycleContext } from './lifecycle.ts';
import { effectiveTaskDef } from './task-defs.ts';
import type { ChildStart, DecideContext, ScheduleRequest } from './task-type.ts';
import { templateContextOf } from './template-context.ts';
import { resolveParameters, type TemplateContext } from './templating.ts';

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

export class RunContext implements DecideContext, LifecycleContext {
  /** The definition's graph, plus the containers dynamic forks made (placeForked). */
  graph: DefinitionGraph;
  /** Whether `graph` is this decide's own (it places forked containers), not the shared one. */
  private ownGraph = false;
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
    for (const task of forkedContainers(workflow, this.graph)) this.placeForked(task);
  }

  placeForked(workflowTask: WorkflowTask): void {
    if (childLists(workflowTask).length === 0) return;
    if (!this.ownGraph) {
      this.graph = new DefinitionGraph(this.workflow.workflowDefinition);
      this.ownGraph = true;
    }
    this.graph.place(workflowTask);
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
    const input = request.input
      ? { ...request.input }
      : this.resolveInput(wt, def, taskId, request.givenInput);
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
    endRun(this, status, reason, output);
  }

  /** Marks a child workflow for termination (SUB_WORKFLOW cancel). */
  terminateChild(workflowId: string, reason: string): void {
    this.terminateChildren.push({ workflowId, reason });
  }

  // ---- the timeout rules' view (TimeoutContext) ----

  /** A task timed out under TIME_OUT_WF: the run fails with it (lib/engine/lifecycle.ts). */
  failWorkflow(task: TaskRecord): void {
    failWorkflow(this, task);
  }

  // ---- the decide's outcome ----

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

  /**
   * The task's inputParameters resolved, `given` merged over them (its keys win, as Conductor's
   * dynamic fork `putAll`s a branch's map into the branch's inputParameters), then the task
   * definition's inputTemplate for keys still missing.
   */
  private resolveInput(
    wt: WorkflowTask,
    def: TaskDef,
    taskId: string,
    given?: Record<string, unknown>,
  ): Record<string, unknown> {
    const resolved = (this.resolve(wt.inputParameters ?? {}, taskId) ?? {}) as Record<string, unknown>;
    // Spread, not Object.assign: a `__proto__` key of the given map stays a plain key.
    const input = given ? { ...resolved, ...given } : resolved;
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
 * The containers dynamic forks made that the run still holds (each outermost one: those inside it
 * are placed with it), for a decide's graph to place again.
 */
function forkedContainers(wf: WorkflowRecord, graph: DefinitionGraph): WorkflowTask[] {
  const candidates = wf.tasks
    .map((t) => t.workflowTask)
    .filter((wt) => !graph.node(wt.taskReferenceName) && childLists(wt).length > 0);
  if (candidates.length === 0) return [];
  const inside = new Set<string>();
  for (const wt of candidates) for (const t of graph.descendants(wt)) inside.add(t.taskReferenceName);
  return candidates.filter((wt) => !inside.has(wt.taskReferenceName));
}

/**
 * A SKIPPED row the flow has not reached yet: the decider leaves it alone until schedule() meets
 * its reference, and it does not hold up the run's completion (it may sit in a branch not taken).
 */
export function isSkippedAhead(task: TaskRecord): boolean {
  return task.status === 'SKIPPED' && !task.executed;
}
