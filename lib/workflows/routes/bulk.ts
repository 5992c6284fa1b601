/**
 * /api/workflow/bulk (docs/conductor-compat.md §1.4): one management operation over 1 to 1,000
 * workflow ids (a JSON array body), always answered 200 with a BulkResponse listing which ids
 * succeeded and why the others failed (lib/workflows/operations/bulk.ts).
 */

import {
  type BodyContract,
  booleanValue,
  type JsonSchema,
  paramsOf,
  stringValue,
} from '../../http/contract.ts';
import { json } from '../../http/responses.ts';
import type { HttpMethod, RouteContext, RouteDef } from '../../http/router.ts';
import { type BulkResponse, bulkIds, MAX_BULK_IDS, runBulk } from '../operations/bulk.ts';
import type { WorkflowOperations } from '../operations/index.ts';

const IDS_BODY: BodyContract = {
  title: 'workflow ids',
  required: true,
  schema: { type: 'array', description: `Workflow ids (1 to ${MAX_BULK_IDS} strings)` },
};

interface BulkSpec {
  method: HttpMethod;
  operation: string;
  summary: string;
  query?: Record<string, JsonSchema>;
  /** The single-run operation applied to each id. */
  each(ops: WorkflowOperations, ctx: RouteContext): (workflowId: string) => Promise<unknown>;
}

const archiveWorkflow = booleanValue('Archive rather than delete (default true); both delete today');

const BULK: readonly BulkSpec[] = [
  {
    method: 'PUT',
    operation: 'pause',
    summary: 'Pause many runs',
    each: (ops) => (id) => ops.pause(id),
  },
  {
    method: 'PUT',
    operation: 'resume',
    summary: 'Resume many paused runs',
    each: (ops) => (id) => ops.resume(id),
  },
  {
    method: 'POST',
    operation: 'restart',
    summary: 'Restart many ended runs from their first task',
    query: { useLatestDefinitions: booleanValue('Use the latest definitions (default false)') },
    each: (ops, ctx) => (id) =>
      ops.restart(id, { useLatestDefinitions: ctx.query.bool('useLatestDefinitions', false) }),
  },
  {
    method: 'POST',
    operation: 'retry',
    summary: 'Retry the failed tasks of many ended runs',
    each: (ops) => (id) => ops.retry(id, { resumeSubworkflowTasks: false }),
  },
  {
    method: 'POST',
    operation: 'terminate',
    summary: 'Terminate many runs',
    query: {
      reason: stringValue('Why (becomes reasonForIncompletion)'),
      triggerFailureWorkflow: booleanValue("Start each definition's failure workflow (default false)"),
    },
    each: (ops, ctx) => (id) =>
      ops.terminate(id, ctx.query.string('reason'), {
        triggerFailureWorkflow: ctx.query.bool('triggerFailureWorkflow', false),
      }),
  },
  {
    method: 'DELETE',
    operation: 'remove',
    summary: 'Remove many runs and their tasks',
    query: { archiveWorkflow },
    each: (ops, ctx) => (id) => ops.remove(id, { archive: ctx.query.bool('archiveWorkflow', true) }),
  },
  {
    method: 'DELETE',
    operation: 'terminate-remove',
    summary: 'Terminate many runs if still going, then remove them',
    query: { reason: stringValue('Why (for the termination)'), archiveWorkflow },
    each: (ops, ctx) => (id) =>
      ops.terminateRemove(id, ctx.query.string('reason'), {
        archive: ctx.query.bool('archiveWorkflow', true),
      }),
  },
];

function bulkRoute(spec: BulkSpec, ops: WorkflowOperations): RouteDef {
  return {
    method: spec.method,
    path: `/api/workflow/bulk/${spec.operation}`,
    permission: 'runs:manage',
    summary: spec.summary,
    request: { ...(spec.query ? { query: paramsOf(spec.query) } : {}), body: IDS_BODY },
    responds: 'application/json',
    handler: async (ctx) => {
      const result: BulkResponse = await runBulk(bulkIds(await ctx.json()), spec.each(ops, ctx));
      return json(result);
    },
  };
}

export function bulkRoutes(ops: WorkflowOperations): RouteDef[] {
  return BULK.map((spec) => bulkRoute(spec, ops));
}
