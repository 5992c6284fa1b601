/**
 * Task updates: a worker's TaskResult (answered with the task id as text/plain), update-v2 (which
 * also hands the worker its next task), and updates by reference name, optionally waiting for the
 * run to move on.
 */

import { type ParamsSchema, paramsOf, pathParams, stringValue } from '../../http/contract.ts';
import { emptyOk, json, noContent, text } from '../../http/responses.ts';
import { type RouteDef, route } from '../../http/router.ts';
import { toApiTask } from '../../model/api.ts';
import { NotFoundError } from '../../model/errors.ts';
import { parseStatus, taskResultOf } from '../task-result.ts';
import {
  MAX_LONG_POLL_MS,
  TASK_OUTPUT_BODY,
  TASK_RESULT_BODY,
  taskOutput,
  WORKER_ID_QUERY,
} from './contracts.ts';
import type { TaskRouteDeps } from './progress.ts';

/** Statuses after which update-v2 hands the worker its next task. */
const FINISHED_FOR_WORKER = ['COMPLETED', 'FAILED', 'FAILED_WITH_TERMINAL_ERROR', 'CANCELED'];
/**
 * How long update-v2 waits for an in-process decide of the updated run before it looks for the
 * next task: a decide takes about a millisecond, and one that schedules a task of the same type (a
 * loop's next iteration) then hands it over in the same answer instead of a poll later.
 */
const DECIDE_WAIT_MS = 50;

const byRefParams: ParamsSchema = pathParams({
  workflowId: stringValue('The run'),
  taskRefName: stringValue('The task reference name in the run'),
  status: stringValue('The new task status'),
});

const update = ({ tasks }: TaskRouteDeps) =>
  route({
    method: 'POST',
    path: '/api/tasks',
    permission: 'tasks:work',
    summary: "Apply a worker's TaskResult; answers the task id",
    request: { body: TASK_RESULT_BODY },
    responds: 'text/plain',
    handler: async (ctx) => {
      const result = taskResultOf(await ctx.checkedBody(TASK_RESULT_BODY));
      await tasks.update(result);
      return text(result.taskId);
    },
  });

const updateV2 = ({ tasks }: TaskRouteDeps) =>
  route({
    method: 'POST',
    path: '/api/tasks/update-v2',
    permission: 'tasks:work',
    summary: "Apply a worker's TaskResult and poll its next task of the same type",
    request: { body: TASK_RESULT_BODY },
    responds: 'application/json',
    handler: async (ctx) => {
      const result = taskResultOf(await ctx.checkedBody(TASK_RESULT_BODY));
      const updated = await tasks.update(result);
      if (!updated || !FINISHED_FOR_WORKER.includes(updated.status)) return noContent();
      await tasks.decided(updated.workflowInstanceId, DECIDE_WAIT_MS);
      const [next] = await tasks.poll(updated.taskType, {
        workerId: result.workerId ?? updated.workerId,
        domain: updated.domain,
        count: 1,
        timeoutMs: 0,
      });
      return next ? json(toApiTask(next)) : noContent();
    },
  });

const updateByRef = ({ tasks }: TaskRouteDeps) =>
  route({
    method: 'POST',
    path: '/api/tasks/{workflowId}/{taskRefName}/{status}',
    permission: 'tasks:work',
    summary: 'Update the running task of a reference name; answers the task id',
    request: { params: byRefParams, query: paramsOf(WORKER_ID_QUERY), body: TASK_OUTPUT_BODY },
    responds: 'text/plain',
    handler: async (ctx) => {
      const status = parseStatus(ctx.param('status'));
      const task = await tasks.updateByRef(
        ctx.param('workflowId'),
        ctx.param('taskRefName'),
        status,
        await taskOutput(ctx),
        ctx.query.string('workerid'),
      );
      return task ? text(task.taskId) : emptyOk();
    },
  });

const updateByRefSync = ({ tasks, reader, waitForProgress }: TaskRouteDeps) =>
  route({
    method: 'POST',
    path: '/api/tasks/{workflowId}/{taskRefName}/{status}/sync',
    permission: 'tasks:work',
    summary: 'Update the running task of a reference name and answer the run once it moved on',
    request: { params: byRefParams, query: paramsOf(WORKER_ID_QUERY), body: TASK_OUTPUT_BODY },
    responds: 'application/json',
    handler: async (ctx) => {
      const workflowId = ctx.param('workflowId');
      const status = parseStatus(ctx.param('status'));
      const before = await reader.record(workflowId);
      const task = await tasks.updateByRef(
        workflowId,
        ctx.param('taskRefName'),
        status,
        await taskOutput(ctx),
        ctx.query.string('workerid'),
      );
      if (!task) {
        throw new NotFoundError(
          `Found no running task ${ctx.param('taskRefName')} in workflow ${workflowId}`,
        );
      }
      await waitForProgress(workflowId, before.rev, MAX_LONG_POLL_MS);
      return json(await reader.get(workflowId, true));
    },
  });

export function updateRoutes(deps: TaskRouteDeps): RouteDef[] {
  return [update(deps), updateV2(deps), updateByRef(deps), updateByRefSync(deps)];
}
