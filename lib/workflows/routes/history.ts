/**
 * Running an ended run again (docs/conductor-compat.md §1.6, §4.7): retry from its failed tasks,
 * restart from scratch, rerun from the start or from a task. Retry and restart answer 204, rerun
 * the workflow id as text/plain (the SDK reads it raw); a run that is not ended is a 409.
 */

import {
  type BodyContract,
  booleanValue,
  objectBody,
  paramsOf,
  pathParams,
  stringValue,
} from '../../http/contract.ts';
import { noContent, text } from '../../http/responses.ts';
import { type RouteDef, route } from '../../http/router.ts';
import type { RerunRequest } from '../operations/rerun.ts';

/** What these routes need of the engine's workflow operations. */
export interface HistoryOperations {
  retry(workflowId: string, options: { resumeSubworkflowTasks?: boolean }): Promise<void>;
  restart(workflowId: string, options: { useLatestDefinitions?: boolean }): Promise<void>;
  rerun(workflowId: string, request: RerunRequest): Promise<string>;
}

const workflowIdParam = pathParams({ workflowId: stringValue('The run') });

const optional = (type: string, description: string) => ({ type: [type, 'null'], description });

const RERUN_BODY: BodyContract = {
  title: 'RerunWorkflowRequest',
  schema: objectBody('Conductor RerunWorkflowRequest; an empty body reruns from the start', {
    reRunFromWorkflowId: optional('string', 'Accepted; the path names the run'),
    workflowInput: optional('object', 'New input of a rerun from the start'),
    reRunFromTaskId: optional('string', 'The task to rerun from (in the run or its sub-workflows)'),
    taskInput: optional('object', 'New input of the task rerun from'),
    correlationId: optional('string', 'New correlation id of a rerun from the start'),
  }),
};

const retry = (ops: HistoryOperations) =>
  route({
    method: 'POST',
    path: '/api/workflow/{workflowId}/retry',
    permission: 'runs:manage',
    summary: 'Retry an ended run from its failed tasks',
    request: {
      params: workflowIdParam,
      query: paramsOf({
        resumeSubworkflowTasks: booleanValue(
          'Retry a failed sub-workflow itself rather than start a new one',
        ),
      }),
    },
    handler: async (ctx) => {
      await ops.retry(ctx.param('workflowId'), {
        resumeSubworkflowTasks: ctx.query.bool('resumeSubworkflowTasks', false),
      });
      return noContent();
    },
  });

const restart = (ops: HistoryOperations) =>
  route({
    method: 'POST',
    path: '/api/workflow/{workflowId}/restart',
    permission: 'runs:manage',
    summary: 'Start an ended run over under the same id',
    request: {
      params: workflowIdParam,
      query: paramsOf({
        useLatestDefinitions: booleanValue('Run the latest registered definition (default false)'),
      }),
    },
    handler: async (ctx) => {
      await ops.restart(ctx.param('workflowId'), {
        useLatestDefinitions: ctx.query.bool('useLatestDefinitions', false),
      });
      return noContent();
    },
  });

const rerun = (ops: HistoryOperations) =>
  route({
    method: 'POST',
    path: '/api/workflow/{workflowId}/rerun',
    permission: 'runs:manage',
    summary: 'Rerun an ended run from the start or from a task; answers the workflow id',
    request: { params: workflowIdParam, body: RERUN_BODY },
    responds: 'text/plain',
    handler: async (ctx) => {
      const body = ((await ctx.json()) ?? {}) as Record<string, unknown>;
      return text(await ops.rerun(ctx.param('workflowId'), rerunRequestOf(body)));
    },
  });

/** The checked body as a request; null and empty ids mean absent (as the Conductor UI sends them). */
function rerunRequestOf(body: Record<string, unknown>): RerunRequest {
  const id = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  const object = (value: unknown) =>
    typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  return {
    reRunFromWorkflowId: id(body.reRunFromWorkflowId),
    workflowInput: object(body.workflowInput),
    reRunFromTaskId: id(body.reRunFromTaskId),
    taskInput: object(body.taskInput),
    correlationId: id(body.correlationId),
  };
}

export function historyRoutes(ops: HistoryOperations): RouteDef[] {
  return [retry(ops), restart(ops), rerun(ops)];
}
