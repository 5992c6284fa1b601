/**
 * Orkes' batch correlation lookup (POST /api/workflow/correlated/batch; docs/conductor-compat.md
 * §1.6, the SDK's `getByCorrelationIds`, also called by the official UI): the runs of any of the named
 * workflows for each correlation id, as a map of correlation id to runs.
 */

import { booleanValue, objectBody, paramsOf } from '../../http/contract.ts';
import { json } from '../../http/responses.ts';
import { type RouteDef, route } from '../../http/router.ts';
import type { ApiWorkflow } from '../../model/api.ts';
import { ValidationError } from '../../model/errors.ts';
import type { WorkflowReader } from '../service.ts';

const stringArray = (description: string) => ({ type: 'array', items: { type: 'string' }, description });

const correlatedBatch = (reader: WorkflowReader) =>
  route({
    method: 'POST',
    path: '/api/workflow/correlated/batch',
    permission: 'runs:read',
    summary: 'Runs of the named workflows for each correlation id (Orkes)',
    request: {
      query: paramsOf({
        includeClosed: booleanValue('Include finished runs (default false)'),
        includeTasks: booleanValue('Include the tasks of each run (default false)'),
      }),
      body: {
        title: 'CorrelationIdsSearchRequest',
        required: true,
        schema: {
          ...objectBody('Workflow names and correlation ids to look up', {
            workflowNames: stringArray('Workflow names'),
            correlationIds: stringArray('Correlation ids'),
          }),
          required: ['workflowNames', 'correlationIds'],
        },
      },
    },
    responds: 'application/json',
    handler: async (ctx) => {
      const body = (await ctx.json()) as { workflowNames: string[]; correlationIds: string[] };
      if (body.workflowNames.length * body.correlationIds.length > 1000) {
        throw new ValidationError('At most 1000 (workflow name, correlation id) pairs per request');
      }
      const includeClosed = ctx.query.bool('includeClosed', false);
      const includeTasks = ctx.query.bool('includeTasks', false);
      const out: Record<string, ApiWorkflow[]> = {};
      for (const correlationId of body.correlationIds) {
        const runs: ApiWorkflow[] = [];
        for (const name of new Set(body.workflowNames)) {
          runs.push(...(await reader.correlated(name, correlationId, includeClosed, includeTasks)));
        }
        out[correlationId] = runs;
      }
      return json(out);
    },
  });

export function correlatedBatchRoutes(reader: WorkflowReader): RouteDef[] {
  return [correlatedBatch(reader)];
}
