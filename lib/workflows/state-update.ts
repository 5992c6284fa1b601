/**
 * Orkes' workflow state update (POST /api/workflow/{workflowId}/state, the SDKs' `updateState`;
 * docs/api.md "Workflow API", docs/conductor-compat.md §1.6): in one call, variables merged into
 * the run and a task result applied to the task of a reference name, then the wait of synchronous
 * execution (lib/workflows/execute.ts): the answer, a WorkflowRun, comes once the run is over, a
 * task in `waitUntilTaskRef` is over or a task blocks it, or with `signalTimeout` when
 * `waitForSeconds` run out.
 *
 * Everything is checked before anything changes: the run (404; 409 for variables once it is over),
 * the task (404 when the reference has no open task). The variables go first, so the decide the
 * task's result asks for already reads them (a SWITCH on `${workflow.variables.x}` right after a
 * WAIT). A result naming its task (`taskResult.taskId`, as the SDK sends it) is applied to that
 * task, so a request sent again applies nothing twice: the task is over, and an update of a task
 * that is over is accepted and ignored, as a worker's is (§4.4), even once the run is over.
 * `requestId` is echoed in the answer.
 */
import { baseRef } from '../model/definition-graph.ts';
import { ConflictError, NotFoundError, quote, ValidationError } from '../model/errors.ts';
import { isTerminalWorkflow, type TaskRecord } from '../model/execution.ts';
import type { TaskService } from '../tasks/service.ts';
import { RESULT_STATUSES, type TaskResult, type TaskResultBody, taskResultOf } from '../tasks/task-result.ts';
import { type BodyOf, bodySchema } from '../validation/body-schema.ts';
import type { SyncExecution } from './execute.ts';
import type { WorkflowReader } from './service.ts';

/** Orkes' WorkflowStateUpdate: the body's only shape check. */
export const WORKFLOW_STATE_UPDATE = bodySchema(
  'WorkflowStateUpdate',
  {
    type: 'object',
    description: 'A task result for the task of a reference name, and variables to set (Orkes)',
    properties: {
      taskReferenceName: {
        type: ['string', 'null'],
        description: 'The reference name of the task the result is for (required with taskResult)',
      },
      taskResult: {
        type: ['object', 'null'],
        description:
          'A TaskResult: status (default COMPLETED), outputData, reasonForIncompletion...; taskId and workflowInstanceId may be left out',
        properties: {
          taskId: { type: ['string', 'null'], description: 'The task, if the caller knows it' },
          workflowInstanceId: { type: ['string', 'null'], description: 'The run of the path, if given' },
          status: { enum: [...RESULT_STATUSES, null], description: `One of ${RESULT_STATUSES.join(', ')}` },
          outputData: { type: ['object', 'null'], description: 'The task output (replaces it)' },
          reasonForIncompletion: { type: ['string', 'null'], description: 'Why the task failed' },
          callbackAfterSeconds: { type: ['integer', 'null'], minimum: 0, description: 'For IN_PROGRESS' },
          workerId: { type: ['string', 'null'], description: 'Who reports' },
          logs: { type: ['array', 'null'], description: 'Log lines: strings or {log, createdTime}' },
        },
      },
      variables: {
        type: ['object', 'null'],
        description: 'Merged into the run variables before the task result is applied',
      },
    },
  },
  {
    check: (body, add) => {
      const ref = body.taskReferenceName;
      if (body.taskResult != null && (typeof ref !== 'string' || ref.trim() === ''))
        add('taskReferenceName', 'is required with a taskResult');
    },
  },
);

export type WorkflowStateUpdate = BodyOf<typeof WORKFLOW_STATE_UPDATE>;

export interface StateUpdateDeps {
  reader: Pick<WorkflowReader, 'record'>;
  tasks: Pick<TaskService, 'openTaskByRef' | 'taskOfRun' | 'update'>;
  /** Merges variables into the run and asks for a decide (WorkflowOperations.setVariables). */
  setVariables(workflowId: string, variables: Record<string, unknown>): Promise<unknown>;
  execution: Pick<SyncExecution, 'waitFor'>;
}

export interface StateUpdateWait {
  requestId?: string;
  waitUntilTaskRefs: readonly string[];
  waitForSeconds?: number;
}

/** Applies the update, then waits as sync execute does; answers the run as a WorkflowRun. */
export async function updateState(
  deps: StateUpdateDeps,
  workflowId: string,
  update: WorkflowStateUpdate,
  wait: StateUpdateWait,
): Promise<Record<string, unknown>> {
  const run = await deps.reader.record(workflowId);
  const variables = update.variables ?? undefined;
  const setsVariables = variables !== undefined && Object.keys(variables).length > 0;
  if (setsVariables && isTerminalWorkflow(run.status)) {
    throw new ConflictError(
      `Workflow is ${run.status}; the variables of a ${run.status} workflow cannot be changed`,
    );
  }
  const result = update.taskResult ?? undefined;
  const task = result ? await taskFor(deps, workflowId, update.taskReferenceName ?? '', result) : undefined;
  if (setsVariables) await deps.setVariables(workflowId, variables);
  if (result && task) await deps.tasks.update(taskResultFor(task, result));
  return deps.execution.waitFor(workflowId, { ...wait, returnStrategy: 'TARGET_WORKFLOW' });
}

type GivenResult = NonNullable<WorkflowStateUpdate['taskResult']>;

/** The task named by the result's taskId (of that reference), else the open task of the reference. */
async function taskFor(
  deps: StateUpdateDeps,
  workflowId: string,
  ref: string,
  result: GivenResult,
): Promise<TaskRecord> {
  const run = result.workflowInstanceId;
  if (typeof run === 'string' && run !== '' && run !== workflowId) {
    throw new ValidationError(
      `taskResult.workflowInstanceId ${quote(run)} is not the workflow updated, ${quote(workflowId)}`,
      [{ path: 'taskResult.workflowInstanceId', message: 'must be the workflow of the path' }],
    );
  }
  const given = typeof result.taskId === 'string' && result.taskId !== '' ? result.taskId : undefined;
  const named = given ? await deps.tasks.taskOfRun(workflowId, given) : undefined;
  if (named) {
    if (named.referenceTaskName !== ref && baseRef(named.referenceTaskName) !== ref) {
      throw new ValidationError(
        `Task ${quote(given)} of workflow ${quote(workflowId)} is ${quote(named.referenceTaskName)}, not ${quote(ref)}`,
        [{ path: 'taskResult.taskId', message: `must be a task of the reference ${quote(ref)}` }],
      );
    }
    return named;
  }
  const open = await deps.tasks.openTaskByRef(workflowId, ref);
  if (!open) {
    throw new NotFoundError(
      `No open task with reference name ${quote(ref)} in workflow ${quote(workflowId)}`,
    );
  }
  return open;
}

/** The result as a worker's TaskResult for that task (read as POST /api/tasks reads one). */
function taskResultFor(task: TaskRecord, result: GivenResult): TaskResult {
  return taskResultOf({
    ...result,
    workflowInstanceId: task.workflowInstanceId,
    taskId: task.taskId,
    status: result.status ?? 'COMPLETED',
    workerId: result.workerId ?? undefined,
  } as TaskResultBody);
}
