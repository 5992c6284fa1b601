/**
 * Starting a run's failure workflow (docs/conductor-compat.md §4.6): the failed run's input plus what
 * failed. Called by the executor, through the host's wiring, after the engine ended a run unsuccessfully.
 */
import { toApiWorkflow } from '../model/api.ts';
import type { WorkflowRecord } from '../model/execution.ts';
import { derivedId } from '../model/ids.ts';
import type { WorkflowStarter } from './start.ts';

export async function startFailureWorkflow(starter: WorkflowStarter, run: WorkflowRecord): Promise<void> {
  const def = run.workflowDefinition;
  let name = def.failureWorkflow as string;
  // A `${workflow.input.x}` name is read from the run's input, as Conductor does.
  const templated = /^\$\{workflow\.input\.([^}]+)\}$/.exec(name);
  if (templated?.[1]) name = String(run.input[templated[1]] ?? '');
  if (name === '') return;
  await starter.start({
    // Deterministic, so a repeated end does not start a second failure workflow.
    workflowId: derivedId('failure', run.workflowId, run.endTime),
    name,
    version: def.failureWorkflowVersion,
    input: {
      ...run.input,
      workflowId: run.workflowId,
      reason: run.reasonForIncompletion,
      failureStatus: run.status,
      failureTaskId: run.failedTaskId,
      failedWorkflow: toApiWorkflow(run, []),
    },
    correlationId: run.correlationId,
    taskToDomain: run.taskToDomain,
  });
}
