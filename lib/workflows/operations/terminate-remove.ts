/**
 * Terminate and remove (docs/conductor-compat.md §1.6 DELETE /workflow/{id}/terminate-remove): a run
 * still going is terminated with the reason (its open tasks canceled, its queue entries and running
 * children ended, its parent told: remove.ts removeRun), then removed. A run already over is just removed:
 * OSS would answer 409 for a COMPLETED one, but there is nothing to terminate and the caller wants it
 * gone. `archiveWorkflow` changes nothing here, as the run is over by the time it is removed.
 */
import { NotFoundError } from '../../model/errors.ts';
import type { OperationDeps } from './deps.ts';
import { removeRun } from './remove.ts';

/** 404 unknown. */
export async function terminateRemove(
  deps: OperationDeps,
  workflowId: string,
  reason: string | undefined,
): Promise<void> {
  const run = await deps.executions.getWorkflow(workflowId);
  if (!run) throw new NotFoundError(`No such workflow found by id: ${workflowId}`);
  await removeRun(deps, run, reason);
}
