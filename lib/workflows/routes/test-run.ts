/**
 * POST /api/workflow/test: a test run against mocked workers (docs/conductor-compat.md §1.6), answered
 * with the simulated Workflow. See lib/workflows/test-run/ for how it is isolated from real runs.
 */

import { type BodyContract, objectBody } from '../../http/contract.ts';
import { json } from '../../http/responses.ts';
import { type RouteDef, route } from '../../http/router.ts';
import type { WorkflowTestRunner } from '../test-run/runner.ts';

/** The root shape only: the fields are checked by the runner, which lists every problem at once. */
const TEST_REQUEST_BODY: BodyContract = {
  title: 'WorkflowTestRequest',
  required: true,
  schema: objectBody('Conductor WorkflowTestRequest: a StartWorkflowRequest with mocks', {
    name: { description: 'The workflow name (defaults to workflowDef.name)' },
    version: { description: 'Non-negative integer; absent or 0 is the latest' },
    input: { description: 'A JSON object' },
    workflowDef: { description: 'An inline workflow definition to test instead of a registered one' },
    taskRefToMockOutput: {
      description:
        'Map of task reference name to mocks [{status, output, executionTime, queueWaitTime}], used in order',
    },
    subWorkflowTestRequest: {
      description: 'Map of SUB_WORKFLOW task reference name to the WorkflowTestRequest of its child',
    },
  }),
};

const testRun = (runner: Pick<WorkflowTestRunner, 'run'>) =>
  route({
    method: 'POST',
    path: '/api/workflow/test',
    permission: 'runs:manage',
    summary: 'Run a workflow against mocked workers, in isolation; answers the simulated run',
    request: { body: TEST_REQUEST_BODY },
    responds: 'application/json',
    handler: async (ctx) => json(await runner.run(await ctx.json())),
  });

export function testRunRoutes(runner: Pick<WorkflowTestRunner, 'run'>): RouteDef[] {
  return [testRun(runner)];
}
