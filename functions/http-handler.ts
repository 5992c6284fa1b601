// Shared middy wrapper for route-group handlers: one place for middlewares every group gets.
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { applicationsCapability } from '../lib/applications/capability.ts';
import type { AnyCapability } from '../lib/capabilities.ts';
import type { FunctionParts } from '../lib/runtime/aws.ts';
import { httpGroupHandler } from '../lib/runtime/aws-http.ts';

/**
 * The handler of `group`'s routes, in a function made of `parts` (lib/runtime/aws.ts). Every route
 * group also has the capability that keeps access keys: with the API requiring tokens, a stored
 * key's token is checked against its key on every request (the stack grants the table's read).
 */
export const routeGroupHandler = (group: AnyCapability, parts: FunctionParts) =>
  middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>().handler(
    httpGroupHandler(group, withKeys(parts)),
  );

function withKeys(parts: FunctionParts): FunctionParts {
  if (parts.capabilities.includes(applicationsCapability)) return parts;
  return { ...parts, capabilities: [...parts.capabilities, applicationsCapability] };
}
