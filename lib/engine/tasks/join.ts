/**
 * JOIN (docs/conductor-compat.md §5.7): waits for the tasks named in `joinOn` (normally the last task
 * of each fork branch), gathering each one's output under its reference name. It completes once all
 * of them are over (a SWITCH or DO_WHILE a dynamic fork made: with the tasks inside it), or fails as
 * soon as one failed for good. Created IN_PROGRESS; re-evaluated on
 * every decide. Lazy decide (§4.1) is not implemented: every task update runs a decide anyway.
 */
import { baseRef, childLists, iterationRef, runsWithin } from '../../model/definition-graph.ts';
import type { WorkflowDef } from '../../model/definitions.ts';
import { isSuccessfulTask, isTerminalTask, type TaskRecord, type TaskStatus } from '../../model/execution.ts';
import { joinSpec } from '../../model/task-types/fork-join.ts';
import type { DecideContext, TaskType } from '../task-type.ts';
import { type TemplateRefs, templateRefs } from '../templating.ts';

export const joinTask: TaskType = {
  ...joinSpec,
  schedule(ctx, request) {
    // Inside a loop the branches run as `ref__N`, so the JOIN waits on this iteration's names.
    const joinOn = (request.workflowTask.joinOn ?? []).map((ref) => iterationRef(ref, request.iteration));
    return [ctx.createTask(request, { status: 'IN_PROGRESS', startTime: ctx.now, inputData: { joinOn } })];
  },
  execute(ctx, task) {
    const joinOn = joinOnOf(task);
    // One pass over the working set, not one per joined reference: a dynamic fork joins 1,000.
    const live = liveByRef(ctx, joinOn);
    const forked: Forked[] = joinOn.map((ref) => ({ ref, task: live.get(ref) }));
    withInside(ctx, forked);
    const outputChanged = gatherOutputs(ctx, task, forked);
    const outcome = evaluate(forked);
    if (!outcome) return outputChanged;
    ctx.setStatus(task, outcome.status, outcome.reason);
    ctx.retire(leaving(ctx, forked));
    return true;
  },
};

/**
 * Branches a dynamic fork generated (not in the definition) leave the working set with the JOIN
 * that gathered them: their rows stay, and a 1,000-branch fork does not stay in the record. A
 * branch the definition names in a template (`${branch_ref.output.result}` in a later task's input
 * or the workflow's output) stays, so the template reads it as it reads any task; when a
 * definition's template finds its reference only when read (`${${workflow.input.ref}.output}`),
 * every branch stays.
 */
function leaving(ctx: DecideContext, forked: Forked[]): TaskRecord[] {
  const named = namedRefs(ctx.graph.def);
  if (named.any) return [];
  return forked.flatMap((f) =>
    f.task && !ctx.graph.defines(f.ref) && settled(f)
      ? [f.task, ...(f.inside ?? [])].filter((t) => !named.names.has(baseRef(t.referenceTaskName)))
      : [],
  );
}

const namedCache = new WeakMap<WorkflowDef, TemplateRefs>();

/** The references a definition's templates read from; a definition snapshot never changes. */
function namedRefs(def: WorkflowDef): TemplateRefs {
  let refs = namedCache.get(def);
  if (!refs) {
    refs = templateRefs(def);
    namedCache.set(def, refs);
  }
  return refs;
}

interface Forked {
  ref: string;
  task: TaskRecord | undefined;
  /**
   * The tasks inside a container a dynamic fork made (a SWITCH's case, a DO_WHILE's body), in the
   * working set: the branch is over once they are too.
   */
  inside?: TaskRecord[];
}

/** Finds the tasks inside each joined container a dynamic fork made (one pass over the working set). */
function withInside(ctx: DecideContext, forked: Forked[]): void {
  const containers = forked.filter(
    (f) => f.task && !ctx.graph.defines(f.ref) && childLists(f.task.workflowTask).length > 0,
  );
  if (containers.length === 0) return;
  const byRef = new Map<string, TaskRecord[]>();
  for (const t of ctx.workflow.tasks) {
    if (t.retried) continue;
    const ref = baseRef(t.referenceTaskName);
    const list = byRef.get(ref);
    if (list) list.push(t);
    else byRef.set(ref, [t]);
  }
  for (const f of containers) {
    const root = f.task as TaskRecord;
    f.inside = ctx.graph
      .descendants(root.workflowTask)
      .flatMap((wt) => byRef.get(wt.taskReferenceName) ?? [])
      .filter((t) => runsWithin(t.iteration, root.iteration));
  }
}

/**
 * A joined task counts once the decider has processed it (`executed`): until then a FAILED task
 * may still be retried (the new attempt supersedes it) or, if optional, become COMPLETED_WITH_ERRORS.
 */
const processed = (t: TaskRecord | undefined): t is TaskRecord =>
  t !== undefined && isTerminalTask(t.status) && t.executed;

/** The joined branch is over: its task, and the tasks inside it when it is a forked container. */
const settled = (f: Forked): boolean => processed(f.task) && (f.inside ?? []).every(processed);

/** The live (latest, not superseded) task of each joined reference, as DecideContext.taskByRef finds it. */
function liveByRef(ctx: DecideContext, refs: string[]): Map<string, TaskRecord> {
  const wanted = new Set(refs);
  const live = new Map<string, TaskRecord>();
  for (const task of ctx.workflow.tasks) {
    if (!task.retried && wanted.has(task.referenceTaskName)) live.set(task.referenceTaskName, task);
  }
  return live;
}

function joinOnOf(task: TaskRecord): string[] {
  const joinOn = task.inputData.joinOn;
  return Array.isArray(joinOn) ? joinOn.filter((ref): ref is string => typeof ref === 'string') : [];
}

/** Copies each joined task's non-empty output under its reference; true when the JOIN's output changed. */
function gatherOutputs(ctx: DecideContext, join: TaskRecord, forked: Forked[]): boolean {
  const output: Record<string, unknown> = { ...join.outputData };
  for (const { ref, task } of forked) {
    if (task && Object.keys(task.outputData).length > 0) output[ref] = task.outputData;
  }
  if (JSON.stringify(output) === JSON.stringify(join.outputData)) return false;
  join.outputData = output;
  ctx.touch(join);
  return true;
}

/** The JOIN's final status once the fork is decided, or undefined while it must keep waiting. */
function evaluate(forked: Forked[]): { status: TaskStatus; reason?: string } | undefined {
  const allSettled = forked.every(settled);
  const failures = forked
    .map((f) => f.task)
    .filter(processed)
    .filter((t) => !isSuccessfulTask(t.status) && !t.workflowTask.optional);
  // A permissive task's failure is acted on only once every joined task is over (§5.7).
  const decisive = failures.some((t) => !t.workflowTask.permissive) || (failures.length > 0 && allSettled);
  if (decisive) {
    const reason = failures
      .map((t) => t.reasonForIncompletion || `Task ${t.referenceTaskName} ended with status ${t.status}`)
      .join(' ');
    // Only cancellations (e.g. a terminated child run): the JOIN is canceled rather than failed.
    const status: TaskStatus = failures.every((t) => t.status === 'CANCELED') ? 'CANCELED' : 'FAILED';
    return { status, reason };
  }
  if (!allSettled) return undefined;
  const withErrors = forked.some(
    (f) => f.task?.status === 'COMPLETED_WITH_ERRORS' && f.task.workflowTask.optional,
  );
  return { status: withErrors ? 'COMPLETED_WITH_ERRORS' : 'COMPLETED' };
}
