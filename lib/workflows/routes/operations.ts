/**
 * Operations on a run (docs/conductor-compat.md §1.6, §4.7; docs/api.md "Workflow API"):
 * pause, resume, terminate, remove, terminate-remove, reset callbacks, skip a task, and the Orkes
 * variables update the UI calls. Each is one WorkflowOperations method; the answers are
 * Conductor's (200 empty, 204 for resetcallbacks, the run for variables), the errors 404 for an
 * unknown run, 409 for a state conflict, 400 for bad input.
 */

import {
  type BodyContract,
  booleanValue,
  objectBody,
  paramsOf,
  pathParams,
  stringValue,
} from '../../http/contract.ts';
import { emptyOk, json, noContent } from '../../http/responses.ts';
import { type RouteDef, route } from '../../http/router.ts';
import { ValidationError } from '../../model/errors.ts';
import type { WorkflowOperations } from '../operations/index.ts';
import type { SkipTaskRequest } from '../operations/skip-task.ts';
import type { WorkflowReader } from '../service.ts';

const workflowIdParam = pathParams({ workflowId: stringValue('The run') });

const pauseRoute = (ops: WorkflowOperations) =>
  route({
    method: 'PUT',
    path: '/api/workflow/{workflowId}/pause',
    permission: 'runs:manage',
    summary: 'Pause a run: nothing new is scheduled until it is resumed',
    request: { params: workflowIdParam },
    handler: async (ctx) => {
      await ops.pause(ctx.param('workflowId'));
      return emptyOk();
    },
  });

const resumeRoute = (ops: WorkflowOperations) =>
  route({
    method: 'PUT',
    path: '/api/workflow/{workflowId}/resume',
    permission: 'runs:manage',
    summary: 'Resume a paused run',
    request: { params: workflowIdParam },
    handler: async (ctx) => {
      await ops.resume(ctx.param('workflowId'));
      return emptyOk();
    },
  });

const terminateRoute = (ops: WorkflowOperations) =>
  route({
    method: 'DELETE',
    path: '/api/workflow/{workflowId}',
    permission: 'runs:manage',
    summary: 'Terminate a run: open tasks are canceled, running children terminated',
    request: {
      params: workflowIdParam,
      query: paramsOf({
        reason: stringValue('Why (becomes reasonForIncompletion)'),
        triggerFailureWorkflow: booleanValue("Start the definition's failure workflow (default false)"),
      }),
    },
    handler: async (ctx) => {
      await ops.terminate(ctx.param('workflowId'), ctx.query.string('reason'), {
        triggerFailureWorkflow: ctx.query.bool('triggerFailureWorkflow', false),
      });
      return emptyOk();
    },
  });

const archiveQuery = {
  archiveWorkflow: booleanValue(
    'Archive rather than delete (default true); there is no archive yet, so both delete',
  ),
};

const removeRoute = (ops: WorkflowOperations) =>
  route({
    method: 'DELETE',
    path: '/api/workflow/{workflowId}/remove',
    permission: 'runs:manage',
    summary: 'Remove a run and its tasks',
    request: { params: workflowIdParam, query: paramsOf(archiveQuery) },
    handler: async (ctx) => {
      await ops.remove(ctx.param('workflowId'), { archive: ctx.query.bool('archiveWorkflow', true) });
      return emptyOk();
    },
  });

const terminateRemoveRoute = (ops: WorkflowOperations) =>
  route({
    method: 'DELETE',
    path: '/api/workflow/{workflowId}/terminate-remove',
    permission: 'runs:manage',
    summary: 'Terminate a run if it is still going, then remove it',
    request: {
      params: workflowIdParam,
      query: paramsOf({ reason: stringValue('Why (for the termination)'), ...archiveQuery }),
    },
    handler: async (ctx) => {
      await ops.terminateRemove(ctx.param('workflowId'), ctx.query.string('reason'), {
        archive: ctx.query.bool('archiveWorkflow', true),
      });
      return emptyOk();
    },
  });

const resetCallbacksRoute = (ops: WorkflowOperations) =>
  route({
    method: 'POST',
    path: '/api/workflow/{workflowId}/resetcallbacks',
    permission: 'runs:manage',
    summary: 'Make every worker task waiting out a callback pollable now',
    request: { params: workflowIdParam },
    handler: async (ctx) => {
      await ops.resetCallbacks(ctx.param('workflowId'));
      return noContent();
    },
  });

const map = (description: string) => ({ type: 'object', description });

const SKIP_TASK_BODY: BodyContract = {
  title: 'SkipTaskRequest',
  schema: objectBody('Conductor SkipTaskRequest (optional)', {
    taskInput: map('The input the skipped task shows'),
    taskOutput: map('The output the skipped task gives: what later tasks read as its output'),
  }),
};

const skipTaskRoute = (ops: WorkflowOperations) =>
  route({
    method: 'PUT',
    path: '/api/workflow/{workflowId}/skiptask/{taskReferenceName}',
    permission: 'runs:manage',
    summary: 'Skip a task not scheduled yet; the flow jumps over it with the given output',
    request: {
      params: pathParams({
        workflowId: stringValue('The run'),
        taskReferenceName: stringValue('The reference name of the task to skip'),
      }),
      // OSS binds these from query or form parameters; the SDKs send the JSON body, which wins.
      query: paramsOf({
        taskInput: stringValue('The task input as a JSON object (the body is preferred)'),
        taskOutput: stringValue('The task output as a JSON object (the body is preferred)'),
      }),
      body: SKIP_TASK_BODY,
    },
    handler: async (ctx) => {
      const body = ((await ctx.json()) ?? {}) as { taskInput?: unknown; taskOutput?: unknown };
      const request: SkipTaskRequest = {
        taskInput: mapOf(body.taskInput) ?? queryMap('taskInput', ctx.query.string('taskInput')),
        taskOutput: mapOf(body.taskOutput) ?? queryMap('taskOutput', ctx.query.string('taskOutput')),
      };
      await ops.skipTask(ctx.param('workflowId'), ctx.param('taskReferenceName'), request);
      return emptyOk();
    },
  });

const VARIABLES_BODY: BodyContract = {
  title: 'workflow variables',
  required: true,
  schema: objectBody('Variables to merge into the run (any JSON object)'),
};

const variablesRoute = (ops: WorkflowOperations, reader: WorkflowReader) =>
  route({
    method: 'POST',
    path: '/api/workflow/{workflowId}/variables',
    permission: 'runs:manage',
    summary: "Merge variables into a run's variables, then decide it (Orkes); answers the run",
    request: { params: workflowIdParam, body: VARIABLES_BODY },
    responds: 'application/json',
    handler: async (ctx) => {
      const variables = (await ctx.json()) as Record<string, unknown>;
      await ops.setVariables(ctx.param('workflowId'), variables);
      return json(await reader.get(ctx.param('workflowId'), true));
    },
  });

function mapOf(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
}

/** A query value holding a JSON object; anything else is a 400 naming the parameter. */
function queryMap(name: string, value: string | undefined): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    parsed = undefined;
  }
  const map = mapOf(parsed);
  if (!map || Array.isArray(map)) {
    throw new ValidationError(`Query parameter '${name}' must be a JSON object, got '${value}'`, [
      { path: name, message: 'must be a JSON object', invalidValue: value },
    ]);
  }
  return map;
}

export function operationRoutes(ops: WorkflowOperations, reader: WorkflowReader): RouteDef[] {
  return [
    pauseRoute(ops),
    resumeRoute(ops),
    terminateRoute(ops),
    removeRoute(ops),
    terminateRemoveRoute(ops),
    resetCallbacksRoute(ops),
    skipTaskRoute(ops),
    variablesRoute(ops, reader),
  ];
}
