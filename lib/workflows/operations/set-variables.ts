/**
 * Update variables (Orkes POST /workflow/{id}/variables, which the UI calls; docs/conductor-compat.md
 * §1.6): the given object is merged into the run's variables, then the run is decided (RunMutator
 * asks for it), so a SWITCH or DO_WHILE reading them sees the new values on its next evaluation.
 */
import { ConflictError } from '../../model/errors.ts';
import { isTerminalWorkflow, type WorkflowRecord } from '../../model/execution.ts';
import type { RunChange, RunMutator } from './run-mutator.ts';

export function setVariablesChange(variables: Record<string, unknown>): RunChange {
  return (run, _openRows, now) => {
    if (isTerminalWorkflow(run.status)) {
      throw new ConflictError(
        `Workflow is ${run.status}; the variables of a ${run.status} workflow cannot be changed`,
      );
    }
    return { run: { ...run, variables: { ...run.variables, ...variables }, updateTime: now } };
  };
}

/** Merges `variables` into the run's; answers the committed run. 404 unknown, 409 when it is over. */
export async function setVariables(
  mutator: RunMutator,
  workflowId: string,
  variables: Record<string, unknown>,
): Promise<WorkflowRecord | undefined> {
  return mutator.mutate(workflowId, setVariablesChange(variables), { mustExist: true });
}
