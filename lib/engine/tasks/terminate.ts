/**
 * TERMINATE (docs/conductor-compat.md §5.14): ends the run at once with `terminationStatus`
 * (COMPLETED, FAILED or TERMINATED). The task itself completes with `workflowOutput` as its output,
 * which also becomes the run's output (§4.6); every other pending task is canceled by the end of
 * the run, and a FAILED or TERMINATED end starts the failure workflow (the executor does that for
 * every run the engine ends). Nothing follows a TERMINATE in the graph.
 */
import { terminateSpec } from '../../model/task-types/terminate.ts';
import type { TaskType } from '../task-type.ts';

const STATUSES = ['COMPLETED', 'FAILED', 'TERMINATED'] as const;
type TerminationStatus = (typeof STATUSES)[number];

const isTerminationStatus = (value: unknown): value is TerminationStatus =>
  (STATUSES as readonly unknown[]).includes(value);

export const terminateTask: TaskType = {
  ...terminateSpec,
  schedule: (ctx, request) => [ctx.createTask(request, { status: 'IN_PROGRESS', startTime: ctx.now })],
  execute(ctx, task) {
    const { terminationStatus, terminationReason, workflowOutput } = task.inputData;
    if (!isTerminationStatus(terminationStatus)) {
      ctx.setStatus(
        task,
        'FAILED',
        `terminationStatus must be one of ${STATUSES.join(', ')}, got: ${String(terminationStatus)}`,
      );
      return true;
    }
    const output = outputOf(workflowOutput);
    task.outputData = output;
    ctx.setStatus(task, 'COMPLETED');
    // The failure workflow is told which task ended the run, as Conductor's TerminateWorkflowException does.
    if (terminationStatus !== 'COMPLETED') ctx.workflow.failedTaskId = task.taskId;
    const reason =
      typeof terminationReason === 'string' && terminationReason !== ''
        ? terminationReason
        : `Workflow is ${terminationStatus} by TERMINATE task: ${task.taskId}`;
    ctx.endWorkflow(terminationStatus, reason, output);
    return true;
  },
};

/** A map is the output as is; any other value is wrapped as `{output: value}`; nothing is `{}`. */
function outputOf(value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value === 'object' && !Array.isArray(value)) return { ...(value as Record<string, unknown>) };
  return { output: value };
}
