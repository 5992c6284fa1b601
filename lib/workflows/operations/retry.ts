/**
 * Retry (docs/conductor-compat.md §4.7, POST /workflow/{id}/retry): an ended run runs again from
 * where it failed. The last attempt of each reference that FAILED, FAILED_WITH_TERMINAL_ERROR,
 * TIMED_OUT or was CANCELED gets a new attempt (scheduled by the next decide, its input resolved
 * again); DO_WHILE and JOIN run again in place; successful tasks never run again. With
 * `resumeSubworkflowTasks` a failed SUB_WORKFLOW's child is retried itself (deepest first) and the
 * task waits for it again, instead of starting a new child. A retried child revives its parents.
 *
 * Children are retried before their parent, and the run named in the request commits last: a
 * crash in between leaves that run ended, so the retry can simply be asked again (a child already
 * running again is then only waited for).
 */
import { ConflictError, VersionConflictError } from '../../model/errors.ts';
import { isTerminalWorkflow, type TaskRecord, type WorkflowRecord } from '../../model/execution.ts';
import type { OperationDeps } from './deps.ts';
import {
  currentTasks,
  markForRetry,
  reopenedRun,
  retryableTasks,
  reviveParents,
  runToReopen,
} from './reopen.ts';
import type { RunChange } from './run-mutator.ts';

export interface RetryOptions {
  resumeSubworkflowTasks?: boolean;
}

const NOTHING_TO_RETRY =
  'There are no retryable tasks! Use restart if you want to attempt entire workflow execution again.';

function refusal(run: WorkflowRecord, tasks: readonly TaskRecord[]): string | undefined {
  if (!isTerminalWorkflow(run.status)) {
    return `Workflow ${run.workflowId} is ${run.status}; only a terminal workflow can be retried`;
  }
  if (tasks.length === 0) return 'Workflow has not started yet';
  if (retryableTasks(tasks).length === 0 && run.status !== 'TIMED_OUT') return NOTHING_TO_RETRY;
  return undefined;
}

/** The change of the run itself; `inPlace` are SUB_WORKFLOW tasks whose child runs again. */
export function retryChange(inPlace: ReadonlySet<string>): RunChange {
  return (run, rows, now) => {
    const tasks = currentTasks(run, rows);
    const refused = refusal(run, tasks);
    if (refused) throw new ConflictError(refused);
    const { edit, retryIds } = markForRetry(run, tasks, retryableTasks(tasks), inPlace, now);
    return {
      ...edit,
      run: { ...reopenedRun(edit.run, now), retryTaskIds: retryIds, lastRetriedTime: now },
    };
  };
}

export async function retry(
  deps: OperationDeps,
  workflowId: string,
  options: RetryOptions = {},
): Promise<void> {
  const run = await runToReopen(deps, workflowId);
  // A retry that died after this run ran again but before its parents were revived: finish it.
  if (!isTerminalWorkflow(run.status) && (await reviveParents(deps.mutator, run))) return;
  const committed = await retryRun(deps, run, options.resumeSubworkflowTasks === true);
  await reviveParents(deps.mutator, committed);
}

/** Retries one run (its failed children first, when resuming them); answers the committed run. */
async function retryRun(deps: OperationDeps, run: WorkflowRecord, resume: boolean): Promise<WorkflowRecord> {
  const refused = refusal(run, run.tasks);
  if (refused) throw new ConflictError(refused);
  const inPlace = new Set<string>();
  if (resume) {
    for (const task of retryableTasks(run.tasks)) {
      // Only a type that owns a child run (its spec's childWorkflow) can wait for it again.
      const followsChild = deps.registry.get(task.workflowTask.type).childWorkflow === true;
      if (!task.subWorkflowId || !followsChild) continue;
      if (await resumeChild(deps, task.subWorkflowId)) inPlace.add(task.taskId);
    }
  }
  const committed = await deps.mutator.mutate(run.workflowId, retryChange(inPlace), { allRows: true });
  if (!committed) throw new ConflictError(`Workflow ${run.workflowId} is gone`);
  return committed;
}

/** Runs a SUB_WORKFLOW's child again; false when it cannot (then the task gets a new child). */
async function resumeChild(deps: OperationDeps, childId: string): Promise<boolean> {
  const child = await deps.executions.getWorkflow(childId);
  if (!child || child.status === 'COMPLETED') return false;
  // Running already: an earlier retry that died before its parent committed got this far.
  if (!isTerminalWorkflow(child.status)) return true;
  try {
    await retryRun(deps, child, true);
    return true;
  } catch (error) {
    if (error instanceof ConflictError && !(error instanceof VersionConflictError)) return false;
    throw error;
  }
}
