/**
 * Pause (docs/conductor-compat.md §4.7): a running run becomes PAUSED. Tasks in flight keep going and
 * their updates are stored, but the decider schedules nothing while the run is PAUSED (decider.ts);
 * the workflow timeout still applies, and terminate still works. Pausing a paused run is a no-op.
 */
import { ConflictError } from '../../model/errors.ts';
import { isTerminalWorkflow } from '../../model/execution.ts';
import type { RunChange, RunMutator } from './run-mutator.ts';

export const pauseChange: RunChange = (run, _openRows, now) => {
  if (isTerminalWorkflow(run.status)) {
    throw new ConflictError(`Workflow is ${run.status}; a ${run.status} workflow cannot be paused`);
  }
  if (run.status === 'PAUSED') return undefined;
  return { run: { ...run, status: 'PAUSED', updateTime: now } };
};

/** Pauses a run; false when it was already PAUSED. 404 unknown, 409 when it is over. */
export async function pause(mutator: RunMutator, workflowId: string): Promise<boolean> {
  return (await mutator.mutate(workflowId, pauseChange, { mustExist: true })) !== undefined;
}
