/**
 * Starting runs: by StartWorkflowRequest, or by name with the input as the body. Both answer the
 * new workflow id as text/plain (the SDKs read it raw).
 */

import {
  type BodyContract,
  integerValue,
  objectBody,
  paramsOf,
  pathParams,
  stringValue,
} from '../../http/contract.ts';
import { text } from '../../http/responses.ts';
import { type RouteDef, route } from '../../http/router.ts';
import { objectOrEmpty } from '../../validation/shapes.ts';
import type { WorkflowStarter } from '../start.ts';
import { START_WORKFLOW_REQUEST, type StartWorkflowBody, startRequestOf } from '../start-request.ts';

/** Its schema (lib/workflows/start-request.ts) is the only check of the body. */
const START_REQUEST_BODY: BodyContract<StartWorkflowBody> = { ...START_WORKFLOW_REQUEST, required: true };

const WORKFLOW_INPUT_BODY: BodyContract = {
  title: 'workflow input',
  schema: objectBody('The workflow input (any JSON object); an empty body is {}'),
};

const startByRequest = (starter: WorkflowStarter) =>
  route({
    method: 'POST',
    path: '/api/workflow',
    permission: 'runs:manage',
    summary: 'Start a run from a StartWorkflowRequest; answers the workflow id',
    request: { body: START_REQUEST_BODY },
    responds: 'text/plain',
    handler: async (ctx) =>
      text(await starter.start(startRequestOf(await ctx.checkedBody(START_REQUEST_BODY)))),
  });

const startByName = (starter: WorkflowStarter) =>
  route({
    method: 'POST',
    path: '/api/workflow/{name}',
    permission: 'runs:manage',
    summary: 'Start a run of a registered workflow with the body as input; answers the workflow id',
    request: {
      params: pathParams({ name: stringValue('The workflow name') }),
      query: paramsOf({
        version: integerValue({ minimum: 0 }, 'The version; absent or 0 is the latest'),
        correlationId: stringValue('Correlation id of the run'),
        priority: integerValue({ minimum: 0, maximum: 99 }, 'Priority of the run (default 0)'),
      }),
      body: WORKFLOW_INPUT_BODY,
    },
    responds: 'text/plain',
    handler: async (ctx) => {
      const input = objectOrEmpty(await ctx.json(), WORKFLOW_INPUT_BODY.title);
      const id = await starter.start({
        name: ctx.param('name'),
        version: ctx.query.optionalInt('version') || undefined,
        correlationId: ctx.query.string('correlationId'),
        priority: ctx.query.int('priority', 0),
        input,
      });
      return text(id);
    },
  });

export function startRoutes(starter: WorkflowStarter): RouteDef[] {
  return [startByRequest(starter), startByName(starter)];
}
