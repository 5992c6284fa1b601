/**
 * Resume (docs/conductor-compat.md §4.7): a PAUSED run is RUNNING again with `lastRetriedTime` set to
 * now, which restarts the workflow-timeout clock (timeouts.ts counts from it). RunMutator asks for a
 * decide after the commit, so what completed while the run was paused moves on at once.
 */
import { ConflictError } from '../../model/errors.ts';
import type { RunChange, RunMutator } from './run-mutator.ts';

export const resumeChange: RunChange = (run, _openRows, now) => {
  // OSS answers 500 here (an IllegalStateException); the reference recommends 409.
  if (run.status !== 'PAUSED') {
    throw new ConflictError(`Workflow is ${run.status}; only a PAUSED workflow can be resumed`);
  }
  return { run: { ...run, status: 'RUNNING', lastRetriedTime: now, updateTime: now } };
};

/** Resumes a paused run. 404 unknown, 409 when it is not PAUSED. */
export async function resume(mutator: RunMutator, workflowId: string): Promise<void> {
  await mutator.mutate(workflowId, resumeChange, { mustExist: true });
}
