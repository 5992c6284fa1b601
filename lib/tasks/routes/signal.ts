/**
 * Signals: complete (or fail) the blocking task of a run (WAIT, HUMAN, YIELD) without naming it,
 * optionally waiting for the run to move on (Conductor's signal/sync with its return strategy).
 */

import { integerValue, type ParamsSchema, paramsOf, pathParams, stringValue } from '../../http/contract.ts';
import { emptyOk, json } from '../../http/responses.ts';
import { type RouteDef, route } from '../../http/router.ts';
import { toApiTask } from '../../model/api.ts';
import { NotFoundError, quote } from '../../model/errors.ts';
import { parseStatus } from '../task-result.ts';
import { TASK_OUTPUT_BODY, taskOutput } from './contracts.ts';
import type { TaskRouteDeps } from './progress.ts';

const signalParams: ParamsSchema = pathParams({
  workflowId: stringValue('The run'),
  status: stringValue('The new status of its blocking task'),
});

const signal = ({ tasks }: TaskRouteDeps) =>
  route({
    method: 'POST',
    path: '/api/tasks/{workflowId}/{status}/signal',
    permission: 'tasks:work',
    summary: 'Complete or fail the blocking task of a run',
    request: { params: signalParams, body: TASK_OUTPUT_BODY },
    handler: async (ctx) => {
      await tasks.signal(ctx.param('workflowId'), parseStatus(ctx.param('status')), await taskOutput(ctx));
      return emptyOk();
    },
  });

const signalSync = ({ tasks, reader, waitForProgress }: TaskRouteDeps) =>
  route({
    method: 'POST',
    path: '/api/tasks/{workflowId}/{status}/signal/sync',
    permission: 'tasks:work',
    summary: 'Complete or fail the blocking task of a run and answer the run once it moved on',
    request: {
      params: signalParams,
      query: paramsOf({
        returnStrategy: stringValue('Named in the answer (default TARGET_WORKFLOW)'),
        timeoutMillis: integerValue({ minimum: 0, maximum: 30_000 }, 'How long to wait (default 5000)'),
      }),
      body: TASK_OUTPUT_BODY,
    },
    responds: 'application/json',
    handler: async (ctx) => {
      const workflowId = ctx.param('workflowId');
      const before = await reader.record(workflowId);
      const returnStrategy = ctx.query.string('returnStrategy') ?? 'TARGET_WORKFLOW';
      const timeoutMs = ctx.query.int('timeoutMillis', 5000);
      const task = await tasks.signal(workflowId, parseStatus(ctx.param('status')), await taskOutput(ctx));
      if (!task) throw new NotFoundError(`No blocking task found in workflow ${quote(workflowId)}`);
      await waitForProgress(workflowId, before.rev, timeoutMs);
      const run = await reader.record(workflowId);
      return json({
        responseType: returnStrategy,
        targetWorkflowId: run.workflowId,
        targetWorkflowStatus: run.status,
        workflowId: run.workflowId,
        correlationId: run.correlationId,
        input: run.input,
        output: run.output,
        priority: run.priority,
        variables: run.variables,
        tasks: (await reader.tasksOf(run)).map(toApiTask),
        createTime: run.createTime,
        updateTime: run.updateTime,
        status: run.status,
      });
    },
  });

export function signalRoutes(deps: TaskRouteDeps): RouteDef[] {
  return [signal(deps), signalSync(deps)];
}
