/**
 * /api/workflow: starting runs (ids answered as text/plain) and reading them back
 * (reference/conductor.md §1.6, SPEC.md "Workflow start API" and "Retrieval"), one file per
 * sub-resource under routes/workflows/.
 */
import type { Engine } from '../../runtime/engine.ts';
import { pathParams, stringValue } from '../contract.ts';
import { emptyOk } from '../responses.ts';
import { type RouteDef, route } from '../router.ts';
import { retrievalRoutes } from './workflows/retrieval.ts';
import { startRoutes } from './workflows/start.ts';

const decide = (engine: Engine) =>
  route({
    method: 'PUT',
    path: '/api/workflow/decide/{workflowId}',
    summary: 'Ask for a decide of a run',
    request: { params: pathParams({ workflowId: stringValue('The run') }) },
    handler: async (ctx) => {
      await engine.reader.record(ctx.param('workflowId'));
      await engine.requestDecide(ctx.param('workflowId'));
      return emptyOk();
    },
  });

export function workflowRoutes(engine: Engine): RouteDef[] {
  return [...startRoutes(engine.starter), ...retrievalRoutes(engine.reader), decide(engine)];
}
