// Lambda entry for the 'system' route group (lib/system/routes.ts): health (which reads the
// definitions table), version, token, and the API document, which describes every route of the
// service: those are built on the document's first request (lib/runtime/route-table.ts).
import { metadataCapability } from '../lib/metadata/capability.ts';
import type { FunctionParts } from '../lib/runtime/aws.ts';
import { dynamodb } from '../lib/runtime/aws-adapters/dynamodb.ts';
import { systemCapability } from '../lib/system/capability.ts';
import { routeGroupHandler } from './http-handler.ts';

export const parts: FunctionParts = {
  capabilities: [systemCapability, metadataCapability],
  adapters: [dynamodb],
  routeTable: async (services) => (await import('../lib/runtime/route-table.ts')).everyRoute(services),
};
export const handler = routeGroupHandler(systemCapability, parts);
