/**
 * /api/workflow: starting runs (ids answered as text/plain) and reading them back
 * (reference/conductor.md §1.6, SPEC.md "Workflow start API" and "Retrieval"), one file per
 * sub-resource under routes/workflows/.
 */
import type { PayloadLocations } from '../../payloads/locations.ts';
import type { WorkflowReader } from '../../workflows/service.ts';
import type { WorkflowStarter } from '../../workflows/start.ts';
import { pathParams, stringValue } from '../contract.ts';
import { emptyOk } from '../responses.ts';
import { type RouteDef, route } from '../router.ts';
import { localPayloadRoutes, storageLocationRoutes } from './external-storage.ts';
import { retrievalRoutes } from './workflows/retrieval.ts';
import { startRoutes } from './workflows/start.ts';

/** What the workflow routes need; the engine provides it (lib/runtime/engine.ts). */
export interface WorkflowRouteDeps {
  starter: WorkflowStarter;
  reader: WorkflowReader;
  /** Asks for a decide of the run. */
  requestDecide(workflowId: string): Promise<void>;
  /** Large payload locations (externalstoragelocation, the local payload route). */
  payloads: PayloadLocations;
}

const decide = (engine: WorkflowRouteDeps) =>
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

export function workflowRoutes(engine: WorkflowRouteDeps): RouteDef[] {
  return [
    ...startRoutes(engine.starter),
    ...retrievalRoutes(engine.reader),
    decide(engine),
    ...storageLocationRoutes('/api/workflow', engine.payloads),
    ...localPayloadRoutes(engine.payloads),
  ];
}
