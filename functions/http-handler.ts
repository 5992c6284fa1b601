// Shared middy wrapper for route-group handlers: one place for middlewares every group gets.
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { AnyCapability } from '../lib/capabilities.ts';
import type { FunctionParts } from '../lib/runtime/aws.ts';
import { httpGroupHandler } from '../lib/runtime/aws-http.ts';

/** The handler of `group`'s routes, in a function made of `parts` (lib/runtime/aws.ts). */
export const routeGroupHandler = (group: AnyCapability, parts: FunctionParts) =>
  middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>().handler(httpGroupHandler(group, parts));
