/**
 * Remove (docs/conductor-compat.md §1.6 DELETE /workflow/{id}/remove, §4.7): deletes the run and
 * its task rows. There is no search index yet, so archiving keeps nothing: `archiveWorkflow=true`
 * only keeps Conductor's precondition (the run must be over, else 400) and then removes it like
 * `archiveWorkflow=false`; afterwards the run reads as unknown (404).
 *
 * A run still going (archive=false) is first terminated through RunMutator: its open task rows are
 * canceled, so a worker holding one has its update ignored, and the run's revision moves, so a
 * decide in flight loses its commit instead of carrying on. Then what follows an end is done (the
 * queue entries of the canceled worker tasks removed, children of canceled SUB_WORKFLOW tasks
 * ended, the parent told: RunEnd.follow), the rows deleted, and the run-removed hooks run (its
 * message queue goes). A run that was over already has its ended tasks' entries removed too
 * (RunEnd.unqueue: one a crash left). A poll that meets an entry left behind finds no row and drops
 * the entry (TaskService.claim).
 */
import { NotFoundError, ValidationError } from '../../model/errors.ts';
import { endPending, isTerminalWorkflow, type WorkflowRecord } from '../../model/execution.ts';
import type { OperationDeps } from './deps.ts';
import { terminateChange } from './terminate.ts';

export interface RemoveOptions {
  /** Conductor's default is true. */
  archive?: boolean;
}

/** 404 unknown; 400 when archiving a run that is not over. */
export async function remove(
  deps: OperationDeps,
  workflowId: string,
  options: RemoveOptions = {},
): Promise<void> {
  const archive = options.archive ?? true;
  const run = await deps.executions.getWorkflow(workflowId);
  if (!run) throw new NotFoundError(`No such workflow found by id: ${workflowId}`);
  if (!isTerminalWorkflow(run.status)) {
    if (archive) {
      throw new ValidationError(
        `Cannot archive workflow ${workflowId}: it is still ${run.status}; terminate it first or remove it with archiveWorkflow=false`,
      );
    }
  }
  await removeRun(deps, run, `Workflow ${workflowId} was removed`);
}

/**
 * Removes a run, terminated first while it is still going (endForRemoval). The decide after its
 * end will find no run, so what it would do (RunEnd.follow: its children ended, its parent
 * told) is done here, for a run ended just now or one whose terminate's decide has not run yet.
 */
export async function removeRun(
  deps: OperationDeps,
  run: WorkflowRecord,
  reason: string | undefined,
): Promise<void> {
  const ended = isTerminalWorkflow(run.status) ? run : await endForRemoval(deps, run.workflowId, reason);
  if (ended) await (endPending(ended) ? deps.runEnd.follow(ended) : deps.runEnd.unqueue(ended));
  await deps.executions.removeWorkflow(run.workflowId);
  await deps.runEnd.removed(run.workflowId);
}

/**
 * Terminates a run about to be removed (its canceled worker tasks leave their queues with what
 * follows its end, done by removeRun: the decide would find no run to do it). Answers the run as it
 * ended: as terminated here, or as read when it ended meanwhile.
 */
async function endForRemoval(
  deps: OperationDeps,
  workflowId: string,
  reason: string | undefined,
): Promise<WorkflowRecord | undefined> {
  const change = terminateChange(reason);
  const terminated = await deps.mutator.mutate(workflowId, (run, openRows, now) =>
    isTerminalWorkflow(run.status) ? undefined : change(run, openRows, now),
  );
  return terminated ?? (await deps.executions.getWorkflow(workflowId));
}
