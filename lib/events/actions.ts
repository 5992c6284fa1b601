/**
 * What an event handler's actions do (docs/conductor-compat.md §2.8, §4.8.7), each over the engine's
 * own operations, with its parameters already resolved against the event's payload:
 * - start_workflow `{name, version, correlationId, input, taskToDomain}`: starts the run under an
 *   id derived from the execution's, so a takeover after a crash finds the run it started; the
 *   run's input gets `conductor.event.messageId` and `conductor.event.name`, its `event` the event;
 * - complete_task / fail_task `{workflowId, taskRefName, taskId, output, reasonForIncompletion}`:
 *   the task by id, or the open task of that reference (the latest loop iteration), updated like a
 *   worker's result, its output plus the two `conductor.event.*` keys;
 * - terminate_workflow `{workflowId, terminationReason}` and update_workflow_variables
 *   `{workflowId, variables, appendArray}` (OSS answers "Action not supported"; Orkes does them);
 * - push_workflow_message `{workflowId, message?}`: the message (default: the whole payload) into
 *   a running workflow's message queue (docs/api.md "Events" 3), when that queue is enabled.
 * A failure the caller cannot fix by trying again is a ValidationError or NotFoundError (the
 * execution is FAILED); anything else is thrown on, and the message delivered again.
 */
import { baseRef } from '../model/definition-graph.ts';
import { NotFoundError, ValidationError } from '../model/errors.ts';
import { isTerminalTask, type TaskRecord, type WorkflowRecord } from '../model/execution.ts';
import { derivedId } from '../model/ids.ts';
import type { TaskResult } from '../tasks/task-result.ts';
import type { StartOutcome } from '../workflows/idempotency.ts';
import type { StartRequest } from '../workflows/start.ts';
import type { EventAction } from './model.ts';

/** The engine operations the actions use (Engine and MessageService provide them). */
export interface ActionPorts {
  parseStart(body: unknown): StartRequest;
  startRun(request: StartRequest): Promise<StartOutcome>;
  getWorkflow(workflowId: string): Promise<WorkflowRecord | undefined>;
  getTasks(workflowId: string, taskIds: readonly string[]): Promise<TaskRecord[]>;
  findTask(taskId: string): Promise<TaskRecord | undefined>;
  updateTask(result: TaskResult): Promise<TaskRecord | undefined>;
  terminate(workflowId: string, reason: string | undefined): Promise<boolean>;
  setVariables(workflowId: string, variables: Record<string, unknown>): Promise<unknown>;
  /** Absent while the workflow message queue is off. */
  pushMessage?(workflowId: string, payload: Record<string, unknown>): Promise<string>;
}

/** The event an action runs for: its execution id and what the `conductor.event.*` keys say. */
export interface ActionEvent {
  executionId: string;
  messageId: string;
  event: string;
  payload: unknown;
}

type Params = Record<string, unknown>;

const isMap = (value: unknown): value is Params =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function text(params: Params, field: string, action: string): string | undefined {
  const value = params[field];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new ValidationError(`${action}.${field} must be a string`);
  return value;
}

function required(params: Params, field: string, action: string): string {
  const value = text(params, field, action);
  if (value === undefined) throw new ValidationError(`${action}.${field} is required`);
  return value;
}

function map(params: Params, field: string, action: string): Params {
  const value = params[field] ?? {};
  if (!isMap(value)) throw new ValidationError(`${action}.${field} must be a JSON object`);
  return value;
}

const eventKeys = (event: ActionEvent) => ({
  'conductor.event.messageId': event.messageId,
  'conductor.event.name': event.event,
});

/** Carries out one action with its resolved parameters; answers the execution's output. */
export async function runAction(
  ports: ActionPorts,
  action: EventAction['action'],
  params: Params,
  event: ActionEvent,
): Promise<Params> {
  switch (action) {
    case 'start_workflow': {
      const request = ports.parseStart(params);
      const outcome = await ports.startRun({
        ...request,
        input: { ...request.input, ...eventKeys(event) },
        workflowId: derivedId('event-workflow', event.executionId),
        event: event.event,
      });
      return { workflowId: outcome.workflowId };
    }
    case 'complete_task':
    case 'fail_task': {
      const task = await findTask(ports, params, action);
      const status = action === 'complete_task' ? 'COMPLETED' : 'FAILED';
      const updated = await ports.updateTask({
        workflowInstanceId: task.workflowInstanceId,
        taskId: task.taskId,
        status,
        outputData: { ...map(params, 'output', action), ...eventKeys(event) },
        reasonForIncompletion: text(params, 'reasonForIncompletion', action),
      });
      // undefined: the task was already over (a takeover re-ran this action); nothing changed.
      return {
        workflowId: task.workflowInstanceId,
        taskId: task.taskId,
        status: updated?.status ?? task.status,
      };
    }
    case 'terminate_workflow': {
      const workflowId = required(params, 'workflowId', action);
      const terminated = await ports.terminate(workflowId, text(params, 'terminationReason', action));
      return { workflowId, terminated };
    }
    case 'update_workflow_variables': {
      const workflowId = required(params, 'workflowId', action);
      const variables = map(params, 'variables', action);
      const appended = params.appendArray === true ? await appendTo(ports, workflowId, variables) : variables;
      await ports.setVariables(workflowId, appended);
      return { workflowId, variables: appended };
    }
    case 'push_workflow_message': {
      const workflowId = required(params, 'workflowId', action);
      if (!ports.pushMessage)
        throw new ValidationError(
          'push_workflow_message needs the workflow message queue (service.workflow-message-queue.enabled)',
        );
      const message = params.message ?? event.payload;
      if (!isMap(message))
        throw new ValidationError(
          'push_workflow_message: the message (or the event payload) must be a JSON object',
        );
      return { workflowId, messageId: await ports.pushMessage(workflowId, message) };
    }
  }
}

/** The task by id, or the open task of a reference name (the latest iteration of a loop). */
async function findTask(ports: ActionPorts, params: Params, action: string): Promise<TaskRecord> {
  const taskId = text(params, 'taskId', action);
  if (taskId) {
    const task = await ports.findTask(taskId);
    if (!task) throw new NotFoundError(`${action}: no task ${taskId}`);
    return task;
  }
  const workflowId = required(params, 'workflowId', action);
  const ref = required(params, 'taskRefName', action);
  const run = await ports.getWorkflow(workflowId);
  if (!run) throw new NotFoundError(`${action}: no workflow ${workflowId}`);
  const ids = run.tasks
    .filter((t) => !t.retried && (t.referenceTaskName === ref || baseRef(t.referenceTaskName) === ref))
    .map((t) => t.taskId);
  const rows = (await ports.getTasks(workflowId, ids)).sort((a, b) => b.seq - a.seq);
  const task = rows.find((t) => !isTerminalTask(t.status)) ?? rows[0];
  if (!task) throw new NotFoundError(`${action}: workflow ${workflowId} has no task ${ref}`);
  return task;
}

/** `appendArray`: list values are appended to the run's list variables of the same name. */
async function appendTo(ports: ActionPorts, workflowId: string, variables: Params): Promise<Params> {
  const run = await ports.getWorkflow(workflowId);
  if (!run) throw new NotFoundError(`update_workflow_variables: no workflow ${workflowId}`);
  const out: Params = {};
  for (const [name, value] of Object.entries(variables)) {
    const current = run.variables[name];
    out[name] = Array.isArray(current) && Array.isArray(value) ? [...current, ...value] : value;
  }
  return out;
}
