// Shared middy wrapper for route-group handlers: one place for middlewares every group gets.
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { CapabilityName } from '../lib/capabilities.ts';
import { httpGroupHandler } from '../lib/runtime/aws.ts';

export const routeGroupHandler = (group: CapabilityName) =>
  middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>().handler(httpGroupHandler(group));
