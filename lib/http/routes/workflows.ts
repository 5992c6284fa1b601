/**
 * /api/workflow: starting runs (ids answered as text/plain) and reading them back
 * (reference/conductor.md §1.6, SPEC.md "Workflow start API" and "Retrieval").
 */
import { ValidationError } from '../../model/errors.ts';
import { TASK_STATUSES, type TaskStatus } from '../../model/execution.ts';
import type { Engine } from '../../runtime/engine.ts';
import { ensureIsArray, ensureIsObject } from '../body.ts';
import { emptyOk, json, text } from '../responses.ts';
import type { RouteDef } from '../router.ts';

export function workflowRoutes(engine: Engine): RouteDef[] {
  const base = '/api/workflow';
  const { starter, reader } = engine;
  return [
    {
      method: 'POST',
      path: base,
      handler: async (ctx) => text(await starter.start(starter.parseRequest(await ctx.json()))),
    },
    {
      method: 'POST',
      path: `${base}/{name}`,
      handler: async (ctx) => {
        const body = await ctx.json();
        const input = body === undefined ? {} : ensureIsObject(body, 'workflow input');
        const id = await starter.start({
          name: ctx.params.name as string,
          version: ctx.query.optionalInt('version', { min: 0 }) || undefined,
          correlationId: ctx.query.string('correlationId'),
          priority: ctx.query.int('priority', 0, { min: 0, max: 99 }),
          input,
        });
        return text(id);
      },
    },
    {
      method: 'GET',
      path: `${base}/running/{name}`,
      handler: async (ctx) =>
        json(
          await reader.running(
            ctx.params.name as string,
            ctx.query.int('version', 1, { min: 1 }),
            ctx.query.optionalInt('startTime', { min: 0 }),
            ctx.query.optionalInt('endTime', { min: 0 }),
          ),
        ),
    },
    {
      method: 'GET',
      path: `${base}/{workflowId}`,
      handler: async (ctx) =>
        json(await reader.get(ctx.params.workflowId as string, ctx.query.bool('includeTasks', true))),
    },
    {
      method: 'GET',
      path: `${base}/{workflowId}/status`,
      handler: async (ctx) =>
        json(
          await reader.status(
            ctx.params.workflowId as string,
            ctx.query.bool('includeOutput', false),
            ctx.query.bool('includeVariables', false),
          ),
        ),
    },
    {
      method: 'GET',
      path: `${base}/{workflowId}/tasks`,
      handler: async (ctx) =>
        json(
          await reader.tasks(
            ctx.params.workflowId as string,
            ctx.query.int('start', 0, { min: 0 }),
            ctx.query.int('count', 15, { min: 0 }),
            statusFilter(ctx.query.list('status')),
          ),
        ),
    },
    {
      method: 'GET',
      path: `${base}/{name}/correlated/{correlationId}`,
      handler: async (ctx) =>
        json(
          await reader.correlated(
            ctx.params.name as string,
            ctx.params.correlationId as string,
            ctx.query.bool('includeClosed', false),
            ctx.query.bool('includeTasks', false),
          ),
        ),
    },
    {
      method: 'POST',
      path: `${base}/{name}/correlated`,
      handler: async (ctx) => {
        const ids = ensureIsArray(await ctx.json(), 'correlation ids');
        const out: Record<string, unknown[]> = {};
        for (const id of ids) {
          if (typeof id !== 'string') throw new ValidationError('Correlation ids must be strings');
          out[id] = await reader.correlated(
            ctx.params.name as string,
            id,
            ctx.query.bool('includeClosed', false),
            ctx.query.bool('includeTasks', false),
          );
        }
        return json(out);
      },
    },
    {
      method: 'PUT',
      path: `${base}/decide/{workflowId}`,
      handler: async (ctx) => {
        await reader.record(ctx.params.workflowId as string);
        await engine.requestDecide(ctx.params.workflowId as string);
        return emptyOk();
      },
    },
  ];
}

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
