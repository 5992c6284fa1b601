/** POST /api/workflow/{workflowId}/messages (docs/api.md "Endpoints"): any JSON object, answers the message id. */
import { pathParams, stringValue } from '../http/contract.ts';
import { text } from '../http/responses.ts';
import { type RouteDef, route } from '../http/router.ts';
import type { MessageService } from './service.ts';

export function messageRoutes(service: MessageService): RouteDef[] {
  return [
    route({
      method: 'POST',
      path: '/api/workflow/{workflowId}/messages',
      permission: 'runs:manage',
      summary: 'Push a JSON message into a running workflow’s message queue',
      request: {
        params: pathParams({ workflowId: stringValue('Workflow id') }),
        body: {
          title: 'message',
          required: true,
          schema: { type: 'object', description: 'Any JSON object' },
        },
      },
      responds: 'text/plain',
      handler: async (ctx) => {
        const payload = (await ctx.json()) as Record<string, unknown>;
        return text(await service.push(ctx.param('workflowId'), payload));
      },
    }),
  ];
}
