// Shared middy wrapper for route-group handlers: one place for middlewares every group gets.
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { AUTH_CAPABILITIES } from '../lib/auth-capabilities.ts';
import type { AnyCapability } from '../lib/capabilities.ts';
import type { FunctionParts } from '../lib/runtime/aws.ts';
import { httpGroupHandler } from '../lib/runtime/aws-http.ts';

/**
 * The handler of `group`'s routes, in a function made of `parts` (lib/runtime/aws.ts). Every route
 * group also has the capabilities that check tokens (lib/auth-capabilities.ts): with the API
 * requiring tokens, a stored key's token is checked against its key on every request (the stack
 * grants their tables: routeGroupGrants).
 */
export const routeGroupHandler = (group: AnyCapability, parts: FunctionParts) =>
  middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>().handler(
    httpGroupHandler(group, withAuth(parts)),
  );

function withAuth(parts: FunctionParts): FunctionParts {
  const missing = AUTH_CAPABILITIES.filter((c) => !parts.capabilities.includes(c));
  return missing.length === 0 ? parts : { ...parts, capabilities: [...parts.capabilities, ...missing] };
}
