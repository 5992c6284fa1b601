/**
 * Reading runs back (docs/conductor-compat.md §1.6, docs/api.md "Retrieval"): one run, its status, its
 * tasks, its size (Orkes), the running ids of a workflow, and runs by correlation id.
 */

import {
  booleanValue,
  integerValue,
  paramsOf,
  pathParams,
  stringList,
  stringValue,
} from '../../http/contract.ts';
import { json } from '../../http/responses.ts';
import { type RouteDef, route } from '../../http/router.ts';
import { ValidationError } from '../../model/errors.ts';
import { TASK_STATUSES, type TaskStatus } from '../../model/execution.ts';
import { ensureIsArray } from '../../validation/shapes.ts';
import type { WorkflowReader } from '../service.ts';

const workflowIdParam = pathParams({ workflowId: stringValue('The run') });

const correlatedQuery = paramsOf({
  includeClosed: booleanValue('Include finished runs (default false)'),
  includeTasks: booleanValue('Include the tasks of each run (default false)'),
});

const running = (reader: WorkflowReader) =>
  route({
    method: 'GET',
    path: '/api/workflow/running/{name}',
    permission: 'runs:read',
    summary: 'Ids of the running runs of a workflow version',
    request: {
      params: pathParams({ name: stringValue('The workflow name') }),
      query: paramsOf({
        version: integerValue({ minimum: 1 }, 'The version (default 1)'),
        startTime: integerValue({ minimum: 0 }, 'Started at or after (epoch ms)'),
        endTime: integerValue({ minimum: 0 }, 'Started at or before (epoch ms)'),
      }),
    },
    responds: 'application/json',
    handler: async (ctx) =>
      json(
        await reader.running(
          ctx.param('name'),
          ctx.query.int('version', 1),
          ctx.query.optionalInt('startTime'),
          ctx.query.optionalInt('endTime'),
        ),
      ),
  });

const get = (reader: WorkflowReader) =>
  route({
    method: 'GET',
    path: '/api/workflow/{workflowId}',
    permission: 'runs:read',
    summary: 'Read a run',
    request: {
      params: workflowIdParam,
      query: paramsOf({
        includeTasks: booleanValue('Include its tasks (default true)'),
        // The Orkes UI's execution page asks for a summary; the full run is a valid answer.
        summarize: booleanValue('Accepted and ignored (Orkes UI)'),
      }),
    },
    responds: 'application/json',
    returns: 'Workflow',
    handler: async (ctx) =>
      json(await reader.get(ctx.param('workflowId'), ctx.query.bool('includeTasks', true))),
  });

/**
 * Orkes' `GET /workflow/{id}/size` (the UI's execution summary shows it): `sizeBytes` is the UTF-8
 * length of the run's JSON with all its tasks, as `GET /workflow/{id}` answers it; there is no limit
 * on a run's size (payloads over the threshold live in the payload store), so `limitBytes` and
 * `ratio` are 0, Orkes' way of saying that none is configured.
 */
const size = (reader: WorkflowReader) =>
  route({
    method: 'GET',
    path: '/api/workflow/{workflowId}/size',
    permission: 'runs:read',
    summary: 'The size of a run with its tasks, in bytes of JSON',
    request: { params: workflowIdParam },
    responds: 'application/json',
    handler: async (ctx) => {
      const run = await reader.get(ctx.param('workflowId'), true);
      return json({ sizeBytes: Buffer.byteLength(JSON.stringify(run), 'utf8'), limitBytes: 0, ratio: 0 });
    },
  });

const status = (reader: WorkflowReader) =>
  route({
    method: 'GET',
    path: '/api/workflow/{workflowId}/status',
    permission: 'runs:read',
    summary: 'Read the status of a run',
    request: {
      params: workflowIdParam,
      query: paramsOf({
        includeOutput: booleanValue('Include its output (default false)'),
        includeVariables: booleanValue('Include its variables (default false)'),
      }),
    },
    responds: 'application/json',
    handler: async (ctx) =>
      json(
        await reader.status(
          ctx.param('workflowId'),
          ctx.query.bool('includeOutput', false),
          ctx.query.bool('includeVariables', false),
        ),
      ),
  });

const tasks = (reader: WorkflowReader) =>
  route({
    method: 'GET',
    path: '/api/workflow/{workflowId}/tasks',
    permission: 'runs:read',
    summary: 'A page of the tasks of a run',
    request: {
      params: workflowIdParam,
      query: paramsOf({
        start: integerValue({ minimum: 0 }, 'Offset (default 0)'),
        count: integerValue({ minimum: 0 }, 'Page size (default 15)'),
        status: stringList('Only tasks in these statuses (case-insensitive)'),
      }),
    },
    responds: 'application/json',
    handler: async (ctx) =>
      json(
        await reader.tasks(
          ctx.param('workflowId'),
          ctx.query.int('start', 0),
          ctx.query.int('count', 15),
          statusFilter(ctx.query.list('status')),
        ),
      ),
  });

const correlated = (reader: WorkflowReader) =>
  route({
    method: 'GET',
    path: '/api/workflow/{name}/correlated/{correlationId}',
    permission: 'runs:read',
    summary: 'Runs of a workflow with a correlation id',
    request: {
      params: pathParams({
        name: stringValue('The workflow name'),
        correlationId: stringValue('The correlation id'),
      }),
      query: correlatedQuery,
    },
    responds: 'application/json',
    handler: async (ctx) =>
      json(
        await reader.correlated(
          ctx.param('name'),
          ctx.param('correlationId'),
          ctx.query.bool('includeClosed', false),
          ctx.query.bool('includeTasks', false),
        ),
      ),
  });

const correlatedMany = (reader: WorkflowReader) =>
  route({
    method: 'POST',
    path: '/api/workflow/{name}/correlated',
    permission: 'runs:read',
    summary: 'Runs of a workflow for each correlation id of the body',
    request: {
      params: pathParams({ name: stringValue('The workflow name') }),
      query: correlatedQuery,
      // Items are checked by the handler, whose answer ("Correlation ids must be strings") predates the
      // schema.
      body: {
        title: 'correlation ids',
        required: true,
        schema: { type: 'array', description: 'Correlation ids (strings)' },
      },
    },
    responds: 'application/json',
    handler: async (ctx) => {
      // The router bounds the list (MAX_BODY_LIST_ITEMS); repeats are looked up once.
      const ids = ensureIsArray(await ctx.json(), 'correlation ids');
      if (ids.some((id) => typeof id !== 'string'))
        throw new ValidationError('Correlation ids must be strings');
      // A null-prototype map: a correlation id named __proto__ is a plain key of the answer.
      const out: Record<string, unknown[]> = Object.create(null);
      for (const id of new Set(ids as string[])) {
        out[id] = await reader.correlated(
          ctx.param('name'),
          id,
          ctx.query.bool('includeClosed', false),
          ctx.query.bool('includeTasks', false),
        );
      }
      return json(out);
    },
  });

/** Conductor matches statuses case-insensitively, so this stays a check of its own. */
function statusFilter(values: string[]): TaskStatus[] {
  return values.map((v) => {
    const upper = v.toUpperCase();
    if (!TASK_STATUSES.includes(upper as TaskStatus)) {
      throw new ValidationError(`Unknown task status '${v}'`, [
        { path: 'status', message: `must be one of ${TASK_STATUSES.join(', ')}`, invalidValue: v },
      ]);
    }
    return upper as TaskStatus;
  });
}

export function retrievalRoutes(reader: WorkflowReader): RouteDef[] {
  return [
    running(reader),
    get(reader),
    size(reader),
    status(reader),
    tasks(reader),
    correlated(reader),
    correlatedMany(reader),
  ];
}
