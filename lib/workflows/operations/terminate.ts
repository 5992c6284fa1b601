/**
 * Terminate (reference/conductor.md §1.1 DELETE /workflow/{id}; also a canceled SUB_WORKFLOW's
 * child): open tasks are canceled first and only then is the run TERMINATED (RunMutator's write
 * order), so a worker update never finds a completed task in a run that is over. A crash in
 * between leaves canceled tasks in a running run, which the next decide ends as TERMINATED anyway.
 */
import { isTerminalTask, isTerminalWorkflow } from '../../model/execution.ts';
import type { RunChange, RunMutator } from './run-mutator.ts';

export function terminateChange(reason: string): RunChange {
  return (run, openRows, now) => {
    if (isTerminalWorkflow(run.status)) return undefined;
    return {
      tasks: openRows
        .filter((row) => !isTerminalTask(row.status))
        .map((row) => ({ ...row, status: 'CANCELED' as const, endTime: now, updateTime: now })),
      run: { ...run, status: 'TERMINATED', reasonForIncompletion: reason, endTime: now },
    };
  };
}

/** Ends a run that is still going; false when there is no such run or it is already over. */
export async function terminate(mutator: RunMutator, workflowId: string, reason: string): Promise<boolean> {
  return (await mutator.mutate(workflowId, terminateChange(reason))) !== undefined;
}
