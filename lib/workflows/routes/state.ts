/**
 * Orkes' state update (POST /api/workflow/{workflowId}/state; docs/api.md "Workflow API"): a task
 * result by reference name and variables in one call, answered with the wait of synchronous
 * execution. The rules are lib/workflows/state-update.ts.
 */

import {
  type BodyContract,
  integerValue,
  paramsOf,
  pathParams,
  stringList,
  stringValue,
} from '../../http/contract.ts';
import { json } from '../../http/responses.ts';
import { type RouteDef, route } from '../../http/router.ts';
import { MAX_WAIT_SECONDS } from '../execute.ts';
import {
  type StateUpdateDeps,
  updateState,
  WORKFLOW_STATE_UPDATE,
  type WorkflowStateUpdate,
} from '../state-update.ts';

const STATE_UPDATE_BODY: BodyContract<WorkflowStateUpdate> = { ...WORKFLOW_STATE_UPDATE, required: true };

const stateUpdate = (deps: StateUpdateDeps) =>
  route({
    method: 'POST',
    path: '/api/workflow/{workflowId}/state',
    permission: 'runs:manage',
    summary: `Merge variables and apply a task result by reference name, then wait as execute does (default 10 s, at most ${MAX_WAIT_SECONDS} s)`,
    request: {
      params: pathParams({ workflowId: stringValue('The run') }),
      query: paramsOf({
        requestId: stringValue('Echoed in the answer (default: generated)'),
        waitUntilTaskRef: stringList('Answer once any of these task reference names is over'),
        waitForSeconds: integerValue(
          { minimum: 0 },
          `Longest wait; 0 or absent is 10, more than ${MAX_WAIT_SECONDS} is ${MAX_WAIT_SECONDS}`,
        ),
      }),
      body: STATE_UPDATE_BODY,
    },
    responds: 'application/json',
    handler: async (ctx) =>
      json(
        await updateState(deps, ctx.param('workflowId'), await ctx.checkedBody(STATE_UPDATE_BODY), {
          requestId: ctx.query.string('requestId'),
          waitUntilTaskRefs: ctx.query.list('waitUntilTaskRef'),
          waitForSeconds: ctx.query.optionalInt('waitForSeconds'),
        }),
      ),
  });

export function stateRoutes(deps: StateUpdateDeps): RouteDef[] {
  return [stateUpdate(deps)];
}
