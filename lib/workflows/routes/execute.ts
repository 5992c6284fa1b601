/**
 * Synchronous execution (docs/api.md "Workflow start API", docs/conductor-compat.md §1.6, §2.13): start a
 * run and answer its state once it is over, blocked, or a listed task is over; or on timeout the
 * state so far with signalTimeout. The waiting itself is lib/workflows/execute.ts.
 */

import {
  integerValue,
  objectBody,
  paramsOf,
  pathParams,
  stringList,
  stringValue,
} from '../../http/contract.ts';
import { json } from '../../http/responses.ts';
import { type RouteDef, route } from '../../http/router.ts';
import type { SyncExecution } from '../execute.ts';
import { MAX_WAIT_SECONDS } from '../execute.ts';
import { RETURN_STRATEGIES, type ReturnStrategy } from '../signal-response.ts';
import type { WorkflowStarter } from '../start.ts';

const execute = (starter: WorkflowStarter, execution: SyncExecution) =>
  route({
    method: 'POST',
    path: '/api/workflow/execute/{name}/{version}',
    permission: 'runs:manage',
    summary: `Start a run and wait (default 10 s, at most ${MAX_WAIT_SECONDS} s, below API Gateway's 30 s limit) until it is over, blocked, or a listed task is over`,
    request: {
      params: pathParams({
        name: stringValue('The workflow name (wins over the body)'),
        version: {
          type: 'string',
          pattern: '^\\d+$',
          description: 'a non-negative integer (0 is the latest)',
        },
      }),
      query: paramsOf({
        requestId: stringValue(
          'Idempotency key: the same requestId answers the same run (default: generated)',
        ),
        waitUntilTaskRef: stringList('Answer once any of these task reference names is over'),
        waitForSeconds: integerValue(
          { minimum: 0 },
          `Longest wait; 0 or absent is 10, more than ${MAX_WAIT_SECONDS} is ${MAX_WAIT_SECONDS}`,
        ),
        consistency: stringValue('Accepted for compatibility; no effect (DURABLE)'),
        returnStrategy: {
          type: 'string',
          enum: [...RETURN_STRATEGIES],
          description: 'What the answer shows (default TARGET_WORKFLOW)',
        },
      }),
      body: {
        title: 'StartWorkflowRequest',
        schema: objectBody('Conductor StartWorkflowRequest; name and version come from the path'),
      },
    },
    responds: 'application/json',
    handler: async (ctx) => {
      const body = (await ctx.json()) ?? {};
      const version = Number(ctx.param('version'));
      const request = starter.parseRequest({ ...(body as object), name: ctx.param('name'), version });
      return json(
        await execution.execute(request, {
          requestId: ctx.query.string('requestId'),
          waitUntilTaskRefs: ctx.query.list('waitUntilTaskRef'),
          waitForSeconds: ctx.query.optionalInt('waitForSeconds'),
          returnStrategy: (ctx.query.string('returnStrategy') ?? 'TARGET_WORKFLOW') as ReturnStrategy,
        }),
      );
    },
  });

export function executeRoutes(starter: WorkflowStarter, execution: SyncExecution): RouteDef[] {
  return [execute(starter, execution)];
}
