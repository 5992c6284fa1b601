/**
 * START_WORKFLOW (docs/conductor-compat.md §5.11): starts an independent run (no parent link,
 * nothing awaited) from `inputParameters.startWorkflow`, a StartWorkflowRequest whose
 * correlationId and taskToDomain default to this run's. Completes with `{workflowId}`. The new
 * run's id derives from the task, so a start repeated after a crash starts nothing twice.
 */
import { childWorkflowIdOf } from '../../model/ids.ts';
import { startWorkflowSpec } from '../../model/task-types/start-workflow.ts';
import type { TaskType } from '../task-type.ts';

/** What START_WORKFLOW needs to start a run (the workflow starter, bound late by the engine). */
export interface WorkflowLauncher {
  start(request: {
    workflowId: string;
    name: string;
    version?: number;
    input: Record<string, unknown>;
    correlationId?: string;
    taskToDomain: Record<string, string>;
    priority?: number;
  }): Promise<string>;
}

const isMap = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const startWorkflowTask = (launcher: WorkflowLauncher | undefined): TaskType => ({
  ...startWorkflowSpec,
  schedule(ctx, request) {
    return [ctx.createTask(request, { status: 'IN_PROGRESS', startTime: ctx.now })];
  },
  async start({ task, run }) {
    const req = task.inputData.startWorkflow;
    if (!isMap(req))
      return { status: 'FAILED', reasonForIncompletion: "Missing 'startWorkflow' in input data." };
    if (typeof req.name !== 'string' || req.name === '')
      return { status: 'FAILED', reasonForIncompletion: "'startWorkflow.name' is required." };
    if (!launcher) return { status: 'FAILED', reasonForIncompletion: 'No workflow starter is configured.' };
    const workflowId = await launcher.start({
      workflowId: childWorkflowIdOf(run.workflowId, task.taskId),
      name: req.name,
      version: typeof req.version === 'number' ? req.version : undefined,
      input: isMap(req.input) ? req.input : {},
      correlationId: typeof req.correlationId === 'string' ? req.correlationId : run.correlationId,
      taskToDomain: isMap(req.taskToDomain) ? (req.taskToDomain as Record<string, string>) : run.taskToDomain,
      priority: typeof req.priority === 'number' ? req.priority : undefined,
    });
    return { status: 'COMPLETED', outputData: { workflowId } };
  },
});
