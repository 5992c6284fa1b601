/**
 * /api/workflow: starting runs (ids answered as text/plain) and reading them back
 * (docs/conductor-compat.md §1.6, docs/api.md "Workflow start API" and "Retrieval"), one file per
 * sub-resource in this folder.
 */

import { pathParams, stringValue } from '../../http/contract.ts';
import { emptyOk } from '../../http/responses.ts';
import { type RouteDef, route } from '../../http/router.ts';
import type { PayloadLocations } from '../../payloads/locations.ts';
import type { TaskService } from '../../tasks/service.ts';
import type { SyncExecution } from '../execute.ts';
import type { WorkflowOperations } from '../operations/index.ts';
import type { WorkflowReader } from '../service.ts';
import type { WorkflowStarter } from '../start.ts';
import type { WorkflowTestRunner } from '../test-run/runner.ts';
import { bulkRoutes } from './bulk.ts';
import { correlatedBatchRoutes } from './correlated-batch.ts';
import { executeRoutes } from './execute.ts';
import { localPayloadRoutes, storageLocationRoutes } from './external-storage.ts';
import { historyRoutes } from './history.ts';
import { operationRoutes } from './operations.ts';
import { retrievalRoutes } from './retrieval.ts';
import { startRoutes } from './start.ts';
import { stateRoutes } from './state.ts';
import { testRunRoutes } from './test-run.ts';

/** What the workflow routes need; the engine provides it (lib/runtime/engine.ts). */
export interface WorkflowRouteDeps {
  starter: WorkflowStarter;
  reader: WorkflowReader;
  operations: WorkflowOperations;
  /** Test runs against mocked workers (POST /workflow/test). */
  testRuns: Pick<WorkflowTestRunner, 'run'>;
  /** Synchronous execution (execute.ts here), and its wait after a state update (state.ts). */
  execution: SyncExecution;
  /** The tasks a state update applies its result to (state.ts). */
  tasks: Pick<TaskService, 'openTaskByRef' | 'taskOfRun' | 'update'>;
  /** Asks for a decide of the run. */
  requestDecide(workflowId: string): Promise<void>;
  /** Large payload locations (externalstoragelocation, the local payload route). */
  payloads: PayloadLocations;
}

const decide = (engine: WorkflowRouteDeps) =>
  route({
    method: 'PUT',
    path: '/api/workflow/decide/{workflowId}',
    permission: 'runs:manage',
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
    ...operationRoutes(engine.operations, engine.reader),
    ...bulkRoutes(engine.operations),
    ...historyRoutes(engine.operations),
    ...testRunRoutes(engine.testRuns),
    ...executeRoutes(engine.starter, engine.execution),
    ...stateRoutes({
      reader: engine.reader,
      tasks: engine.tasks,
      setVariables: (workflowId, variables) => engine.operations.setVariables(workflowId, variables),
      execution: engine.execution,
    }),
    ...correlatedBatchRoutes(engine.reader),
    ...storageLocationRoutes('/api/workflow', engine.payloads),
    ...localPayloadRoutes(engine.payloads),
  ];
}
