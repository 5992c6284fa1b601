/**
 * Remove (reference/conductor.md §1.6 DELETE /workflow/{id}/remove, §4.7): deletes the run and its
 * task rows. There is no search index yet, so archiving keeps nothing: `archiveWorkflow=true` only
 * keeps Conductor's precondition (the run must be over, else 400) and then removes it like
 * `archiveWorkflow=false`; afterwards the run reads as unknown (404).
 *
 * A run still going (archive=false) is first terminated through RunMutator: its open task rows are
 * canceled, so a worker holding one has its update ignored, and the run's revision moves, so a
 * decide in flight loses its commit instead of carrying on. Then the queue entries of the canceled
 * worker tasks and the children of canceled SUB_WORKFLOW tasks are ended, and the rows deleted. A
 * poll that meets an entry left behind finds no row and drops the entry (TaskService.claim).
 */
import { queueEntryOf } from '../../engine/queues.ts';
import { NotFoundError, ValidationError } from '../../model/errors.ts';
import { isTerminalWorkflow, type TaskRecord } from '../../model/execution.ts';
import type { OperationDeps } from './deps.ts';
import { terminateChange, terminateRunning } from './terminate.ts';

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
    await endForRemoval(deps, workflowId, `Workflow ${workflowId} was removed`);
  }
  await deps.executions.removeWorkflow(workflowId);
  await deps.onRunRemoved?.(workflowId);
}

/**
 * Terminates a run about to be removed, doing now what the decide after a terminate would do
 * (Executor.followEnd), since that decide will find no run: its queue entries and its running
 * children are ended here. A run that ended meanwhile is left as it is.
 */
export async function endForRemoval(
  deps: OperationDeps,
  workflowId: string,
  reason: string | undefined,
): Promise<void> {
  let canceled: TaskRecord[] = [];
  const change = terminateChange(reason);
  await deps.mutator.mutate(workflowId, (run, openRows, now) => {
    const edit = isTerminalWorkflow(run.status) ? undefined : change(run, openRows, now);
    canceled = edit?.tasks ?? [];
    return edit;
  });
  for (const task of canceled) {
    const type = deps.registry.get(task.workflowTask.type);
    if (type.kind === 'worker') await deps.queue.remove(queueEntryOf(task));
    if (type.onChildEnded && task.subWorkflowId) {
      await terminateRunning(deps.mutator, task.subWorkflowId, `Parent workflow ${workflowId} was removed`);
    }
  }
}
