/**
 * SET_VARIABLE (docs/conductor-compat.md §5.15): writes each resolved input key into the run's
 * `variables` (overwriting), readable later as `${workflow.variables.key}`. The task completes with
 * no output. Variables live in the run record, so their size is capped: a change that would take
 * them over the limit is reverted and the task fails terminally.
 */
import { setVariableSpec } from '../../model/task-types/set-variable.ts';
import type { TaskType } from '../task-type.ts';

/** Conductor's default `maxWorkflowVariablesPayloadSizeThresholdKB` (256 KB). */
export const MAX_VARIABLES_BYTES = 256 * 1024;

export const setVariableTask: TaskType = {
  ...setVariableSpec,
  schedule: (ctx, request) => [ctx.createTask(request, { status: 'IN_PROGRESS', startTime: ctx.now })],
  execute(ctx, task) {
    const wf = ctx.workflow;
    const variables = { ...wf.variables, ...task.inputData };
    const size = Buffer.byteLength(JSON.stringify(variables), 'utf8');
    if (size > MAX_VARIABLES_BYTES) {
      // The run's variables are left as they were.
      ctx.setStatus(
        task,
        'FAILED_WITH_TERMINAL_ERROR',
        `The variables payload size: ${size} of workflow: ${wf.workflowId} is greater than the permissible limit: ${MAX_VARIABLES_BYTES} bytes`,
      );
      return true;
    }
    wf.variables = variables;
    ctx.setStatus(task, 'COMPLETED');
    return true;
  },
};
