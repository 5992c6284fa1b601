/**
 * What retry, restart and rerun share (docs/conductor-compat.md §4.7): opening an ended run again,
 * choosing which of its tasks run again and how, and reviving the parents of a sub-workflow that
 * runs again. The changes only mark tasks: new attempts are scheduled by the next decide
 * (WorkflowRecord.retryTaskIds, rerunFrom), so a crash between an operation's writes leaves
 * nothing half scheduled, and running the operation again converges.
 */
import { NotFoundError } from '../../model/errors.ts';
import {
  isTerminalWorkflow,
  type TaskRecord,
  type TaskStatus,
  type WorkflowRecord,
  withRow,
} from '../../model/execution.ts';
import { specOf } from '../../model/task-types/index.ts';
import type { OperationDeps } from './deps.ts';
import type { RunChange, RunEdit, RunMutator } from './run-mutator.ts';

/** Statuses of a last attempt that a retry runs again (§4.7). */
const RETRYABLE: ReadonlySet<TaskStatus> = new Set([
  'FAILED',
  'FAILED_WITH_TERMINAL_ERROR',
  'TIMED_OUT',
  'CANCELED',
]);

export const isRetryableStatus = (status: TaskStatus): boolean => RETRYABLE.has(status);

/**
 * Reads a run to reopen (retry, restart, rerun), or answers 404 the way the read API does. What
 * follows its end is done first if it may still be to do (RunEnd.followPending): the reopened
 * run's decides would not, and leave an old child running beside a new one.
 */
export async function runToReopen(
  deps: Pick<OperationDeps, 'mutator' | 'runEnd'>,
  workflowId: string,
): Promise<WorkflowRecord> {
  const run = await deps.mutator.executions.getWorkflow(workflowId);
  if (!run) throw new NotFoundError(`No such workflow found by id: ${workflowId}`);
  await deps.runEnd.followPending(run);
  return run;
}

/**
 * The working set as an operation judges it, each task carrying its row's revision (its writes
 * are conditional on it). An ended run's own copies are the truth (its last decide wrote every row
 * it changed, and nothing changes a task of an ended run since), so a row an earlier attempt of
 * the operation already reset is reset again. A run still going may have rows that are ahead of
 * the record (a child's end reported to a parent whose decide has not run yet): those rows win.
 */
export function currentTasks(run: WorkflowRecord, rows: readonly TaskRecord[]): TaskRecord[] {
  const byId = new Map(rows.map((row) => [row.taskId, row]));
  const ended = isTerminalWorkflow(run.status);
  return run.tasks.map((task) => {
    const row = byId.get(task.taskId);
    if (!row) return task;
    if (ended) return { ...task, rev: row.rev };
    return withRow(task, row);
  });
}

/** The last attempt of each reference whose status a retry runs again. */
export function retryableTasks(tasks: readonly TaskRecord[]): TaskRecord[] {
  const last = new Map<string, TaskRecord>();
  for (const task of tasks) if (!task.retried) last.set(task.referenceTaskName, task);
  return [...last.values()].filter((task) => RETRYABLE.has(task.status));
}

/** A task back to IN_PROGRESS in place; the decider looks at it again (`executed` false). */
export function reopenedTask(task: TaskRecord, now: number): TaskRecord {
  return {
    ...task,
    status: 'IN_PROGRESS',
    endTime: 0,
    reasonForIncompletion: undefined,
    updateTime: now,
    executed: false,
    retried: false,
  };
}

/** The run fields an ended run clears when it runs again. */
export function reopenedRun(run: WorkflowRecord, now: number): WorkflowRecord {
  return {
    ...run,
    status: 'RUNNING',
    endTime: 0,
    updateTime: now,
    output: {},
    reasonForIncompletion: undefined,
    failedReferenceTaskNames: [],
    failedTaskNames: [],
    failedTaskId: undefined,
    endedByEngine: undefined,
  };
}

/**
 * Marks tasks of the working set to run again: those in `inPlace`, and those of a type that runs
 * again in place (its spec's reopenInPlace: a loop or a join re-evaluates what it holds, §4.7), go
 * back to IN_PROGRESS (a row write); the others get a new attempt from the next decide. Answers
 * the edit (the run is not reopened here) and the ids given a new attempt.
 */
export function markForRetry(
  run: WorkflowRecord,
  tasks: readonly TaskRecord[],
  chosen: readonly TaskRecord[],
  inPlace: ReadonlySet<string>,
  now: number,
): { edit: RunEdit; retryIds: string[] } {
  const chosenIds = new Set(chosen.map((t) => t.taskId));
  const rows: TaskRecord[] = [];
  const retryIds: string[] = [];
  const working = tasks.map((task) => {
    if (!chosenIds.has(task.taskId)) return task;
    if (inPlace.has(task.taskId) || specOf(task.workflowTask.type).reopenInPlace) {
      const reopened = reopenedTask(task, now);
      rows.push(reopened);
      return { ...reopened, rev: task.rev + 1 };
    }
    retryIds.push(task.taskId);
    return { ...task, executed: false };
  });
  return { edit: { run: { ...run, tasks: working }, tasks: rows }, retryIds };
}

/**
 * The change that revives a parent whose SUB_WORKFLOW task `taskId` follows a child that runs
 * again: that task back to IN_PROGRESS, and an ended parent running again with its other
 * retryable tasks (siblings canceled when it ended) retried. Undefined when there is nothing to
 * revive (the task is still open, or was superseded, or succeeded).
 */
export function reviveChange(taskId: string): RunChange {
  return (run, rows, now) => {
    const tasks = currentTasks(run, rows);
    const task = tasks.find((t) => t.taskId === taskId && !t.retried);
    if (!task || !RETRYABLE.has(task.status)) return undefined;
    const ended = isTerminalWorkflow(run.status);
    const chosen = ended ? [task, ...retryableTasks(tasks).filter((t) => t.taskId !== taskId)] : [task];
    const { edit, retryIds } = markForRetry(run, tasks, chosen, new Set([taskId]), now);
    if (!ended) return edit;
    return {
      ...edit,
      run: { ...reopenedRun(edit.run, now), retryTaskIds: retryIds, lastRetriedTime: now },
    };
  };
}

/**
 * Revives every ancestor of a run that runs again, nearest first; true when one was changed.
 * Each step is its own conditional commit, so a crash part way leaves the rest for a re-run.
 */
export async function reviveParents(mutator: RunMutator, run: WorkflowRecord): Promise<boolean> {
  let revived = false;
  let child: WorkflowRecord | undefined = run;
  while (child?.parentWorkflowId && child.parentWorkflowTaskId) {
    const parentId: string = child.parentWorkflowId;
    const committed = await mutator.mutate(parentId, reviveChange(child.parentWorkflowTaskId), {
      allRows: true,
    });
    if (committed) revived = true;
    child = committed ?? (await mutator.executions.getWorkflow(parentId));
  }
  return revived;
}
