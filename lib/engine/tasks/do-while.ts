/**
 * DO_WHILE (docs/conductor-compat.md §5.6): a sync operator that runs its `loopOver` body, then
 * evaluates `loopCondition` and runs the body again while it holds. Body tasks of iteration n are
 * named `<ref>__n` and carry `iteration` n; the loop's own count lives in `outputData.iteration`,
 * which the body reads as `${loop.output.iteration}`. A loop inside a loop numbers its iterations
 * after the outer one's (`<ref>__2__1`: inner iteration 1 in outer iteration 2; definition-graph.ts).
 *
 * The loop starts its first iteration from execute() rather than from schedule(): a task's input
 * is resolved against the run's tasks, and the loop's own record joins them only once schedule()
 * returns, so a first body task scheduled from there would read `${loop.output.iteration}` as null.
 *
 * When an iteration is over, the body tasks of the iterations before it leave the decider's
 * working set (they remain as task rows). At most two iterations stay: the current one, and the
 * previous one, which a body task may still read (`${fetch.output.cursor}` on the next page).
 * That keeps the thousandth iteration's decide as cheap as the tenth.
 */
import { baseRef, iterationWithin, loopIterationBase } from '../../model/definition-graph.ts';
import type { WorkflowTask } from '../../model/definitions.ts';
import { errorMessage } from '../../model/errors.ts';
import { isSuccessfulTask, isTerminalTask, type TaskRecord } from '../../model/execution.ts';
import { doWhileSpec } from '../../model/task-types/do-while.ts';
import type { ScriptEvaluator } from '../script/evaluator.ts';
import type { DecideContext, TaskType } from '../task-type.ts';
import { expandLoopOutputs } from './do-while-output.ts';

export const doWhileTask = (scripts: ScriptEvaluator): TaskType => ({
  ...doWhileSpec,
  schedule(ctx, request) {
    const wt = request.workflowTask;
    const task = ctx.createTask(request, { taskType: 'DO_WHILE', status: 'IN_PROGRESS', startTime: ctx.now });
    // List mode, OSS style: `items` on the workflow task, resolved once and kept with the input.
    if (wt.items !== undefined)
      task.inputData = { ...task.inputData, items: ctx.resolve(wt.items, task.taskId) };
    const items = itemsOf(task);
    if (items === null) {
      task.status = 'FAILED_WITH_TERMINAL_ERROR';
      task.reasonForIncompletion = 'DO_WHILE items must resolve to a list';
      task.endTime = ctx.now;
    } else if (items?.length === 0) {
      task.outputData = { iteration: 0 };
    } else {
      task.outputData = { iteration: 1, ...(items ? { loopIndex: 0, loopItem: items[0] } : {}) };
    }
    return [task];
  },
  async execute(ctx, task) {
    if (task.loopEnd === 'gathering') return false;
    if (task.loopEnd === 'gathered') {
      // The executor put every iteration's output back (Executor.gatherLoopOutputs): done.
      task.loopEnd = undefined;
      ctx.setStatus(task, 'COMPLETED');
      return true;
    }
    const items = itemsOf(task) ?? undefined;
    if (items?.length === 0) {
      // An empty list completes the loop at once, without running the body (§5.6 "List mode").
      ctx.setStatus(task, 'COMPLETED');
      return true;
    }
    const n = currentIteration(task);
    const body = iterationTasks(ctx, task, n);
    if (body.length === 0) return startIteration(ctx, task, n);
    // processTerminal schedules a task's successor as it marks the task executed, so once every
    // task of the iteration is terminal and executed, nothing more of the body is coming.
    if (!body.every((t) => isTerminalTask(t.status) && t.executed)) return false;
    await finishIteration(ctx, scripts, task, n, body, items);
    return true;
  },
  expandOutput: (task, rows, def) => expandLoopOutputs(task, rows, def),
});

async function finishIteration(
  ctx: DecideContext,
  scripts: ScriptEvaluator,
  task: TaskRecord,
  n: number,
  body: TaskRecord[],
  items: unknown[] | undefined,
): Promise<void> {
  const outputs: Record<string, unknown> = {};
  for (const t of body) outputs[baseRef(t.referenceTaskName)] = t.outputData;
  // The run keeps only the last RECORDED_ITERATIONS iterations' outputs in the loop's output, so
  // the 1,000th iteration costs what the 10th does; every iteration's body rows are kept, and
  // readers rebuild the full Conductor output from them (do-while-output.ts).
  task.outputData = pruned(
    { ...task.outputData, [String(n)]: outputs },
    recordedKeep(task.inputData.keepLastN),
    n,
  );
  ctx.touch(task);

  // Only optional (COMPLETED_WITH_ERRORS) and permissive failures get here: any other failure
  // ends the run from processTerminal before the loop looks at its body.
  const failed = body.filter((t) => !isSuccessfulTask(t.status));
  if (failed.length > 0) {
    const reasons = failed.map((t) => t.reasonForIncompletion ?? `${t.referenceTaskName} ${t.status}`);
    ctx.setStatus(task, 'FAILED', reasons.join(' '));
    return;
  }

  let again: boolean;
  try {
    again = await shouldContinue(ctx, scripts, task, outputs, items, n);
  } catch (error) {
    const message = `Unable to evaluate condition ${task.workflowTask.loopCondition ?? ''}, exception ${errorMessage(error)}`;
    ctx.setStatus(task, 'FAILED_WITH_TERMINAL_ERROR', message);
    return;
  }
  const keep = keepLastNOf(task.inputData.keepLastN);
  // keepLastN: iterations before the last N leave storage; otherwise the previous iteration stays
  // in the working set (a body task may read it) and older ones leave it, their rows kept.
  if (keep > 0) ctx.deleteRows(olderIterations(ctx, task, n - keep + 1));
  else ctx.retire(olderIterations(ctx, task, n));
  if (!again) {
    const shown = Math.min(keepLastNOf(task.inputData.keepLastN) || n, n);
    if (shown > recordedKeep(task.inputData.keepLastN)) {
      // Older iterations left the record; later templates read `${loop.output}` in full, so the
      // executor gathers them from the task rows (once) before the loop completes.
      task.loopEnd = 'gathering';
      ctx.touch(task);
      ctx.decideAgain();
      return;
    }
    ctx.setStatus(task, 'COMPLETED');
    return;
  }
  const next = n + 1;
  // A new output object: the one read may be shared with the store's copy (never changed in place).
  task.outputData = items
    ? { ...task.outputData, iteration: next, loopIndex: n, loopItem: items[n] }
    : { ...task.outputData, iteration: next };
  await startIteration(ctx, task, next);
}

/** Schedules the first body task of an iteration; the rest follow it through the graph. */
async function startIteration(ctx: DecideContext, task: TaskRecord, n: number): Promise<boolean> {
  const first = task.workflowTask.loopOver?.[0];
  if (!first) {
    ctx.setStatus(task, 'COMPLETED');
    return true;
  }
  const scheduled = await ctx.schedule({
    workflowTask: first,
    iteration: loopIterationBase(task.iteration) + n,
    parentTaskId: task.taskId,
  });
  return scheduled.length > 0;
}

/**
 * The loop goes on while the list (in list mode) has items left and the condition holds. Its `$`
 * is the loop's resolved inputParameters, the loop's output under its reference name, and the
 * latest output of each body task under the body task's reference name.
 */
async function shouldContinue(
  ctx: DecideContext,
  scripts: ScriptEvaluator,
  task: TaskRecord,
  outputs: Record<string, unknown>,
  items: unknown[] | undefined,
  n: number,
): Promise<boolean> {
  if (items && n >= items.length) return false;
  const wt = task.workflowTask;
  const condition = wt.loopCondition ?? '';
  // Without a condition a list loop runs over every item; a plain loop runs its body once.
  if (condition.trim() === '') return items !== undefined;
  const input = (ctx.resolve(wt.inputParameters ?? {}, task.taskId) ?? {}) as Record<string, unknown>;
  const result = await scripts.evaluate(condition, {
    ...input,
    [wt.taskReferenceName]: task.outputData,
    ...outputs,
  });
  // Conductor's evalBool: a boolean as is, a number when positive, anything else false.
  return result === true || (typeof result === 'number' && result > 0);
}

/** The tasks of one iteration of this loop in the working set (superseded attempts excluded). */
function iterationTasks(ctx: DecideContext, task: TaskRecord, n: number): TaskRecord[] {
  const refs = bodyRefs(ctx, task.workflowTask);
  return ctx.workflow.tasks.filter(
    (t) =>
      !t.retried &&
      refs.has(baseRef(t.referenceTaskName)) &&
      iterationWithin(t.iteration, loopIterationBase(task.iteration)) === n,
  );
}

function olderIterations(ctx: DecideContext, task: TaskRecord, n: number): TaskRecord[] {
  const refs = bodyRefs(ctx, task.workflowTask);
  return ctx.workflow.tasks.filter((t) => {
    if (!refs.has(baseRef(t.referenceTaskName))) return false;
    const within = iterationWithin(t.iteration, loopIterationBase(task.iteration));
    return within > 0 && within < n;
  });
}

/** Base reference names of everything inside the body, nested operators included; cached per definition. */
const refsCache = new WeakMap<WorkflowTask, Set<string>>();

function bodyRefs(ctx: DecideContext, loop: WorkflowTask): Set<string> {
  let refs = refsCache.get(loop);
  if (!refs) {
    refs = new Set(ctx.graph.descendants(loop).map((t) => t.taskReferenceName));
    refsCache.set(loop, refs);
  }
  return refs;
}

function currentIteration(task: TaskRecord): number {
  const value = task.outputData.iteration;
  return typeof value === 'number' && value > 0 ? value : 1;
}

/** The list of a list-mode loop; undefined for a plain loop, null when the list is not a list. */
function itemsOf(task: TaskRecord): unknown[] | null | undefined {
  const wt = task.workflowTask;
  // `items` (OSS) or `inputParameters._items` (Orkes), both resolved into the task's input.
  const listed = wt.items !== undefined || Object.hasOwn(wt.inputParameters ?? {}, '_items');
  if (!listed) return undefined;
  const value = wt.items !== undefined ? task.inputData.items : task.inputData._items;
  return Array.isArray(value) ? value : null;
}

/** A positive keepLastN, or 0 when none is set. */
function keepLastNOf(value: unknown): number {
  const keep = value === null || value === '' ? Number.NaN : Math.floor(Number(value));
  return keep > 0 ? keep : 0;
}

/** Iterations whose outputs the run record keeps inside the loop's output. */
export const RECORDED_ITERATIONS = 2;

/** How many iterations' outputs the loop's output holds in the run record. */
function recordedKeep(keepLastN: unknown): number {
  const asked = Math.floor(Number(keepLastN));
  return asked > 0 ? Math.min(asked, RECORDED_ITERATIONS) : RECORDED_ITERATIONS;
}

/** `keepLastN`: only the last N iteration keys stay in the output (§5.6). */
function pruned(output: Record<string, unknown>, keepLastN: unknown, n: number): Record<string, unknown> {
  const keep = keepLastN === null || keepLastN === '' ? Number.NaN : Math.floor(Number(keepLastN));
  if (!(keep > 0)) return output;
  for (const key of Object.keys(output)) {
    if (/^\d+$/.test(key) && Number(key) <= n - keep) delete output[key];
  }
  return output;
}
