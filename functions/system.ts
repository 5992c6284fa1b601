// Lambda entry for the 'system' route group (lib/system/routes.ts): health (which reads the
// definitions table), version, token, and the API document, which describes every route of the
// service: those are built on the document's first request, by a module bundled as a file of its
// own beside this one (lib/runtime/route-table.ts; the system capability's `modules`).
import { metadataCapability } from '../lib/metadata/capability.ts';
import type { FunctionParts } from '../lib/runtime/aws.ts';
import { dynamodb } from '../lib/runtime/aws-adapters/dynamodb.ts';
import { ROUTE_TABLE_MODULE, systemCapability } from '../lib/system/capability.ts';
import { routeGroupHandler } from './http-handler.ts';

type RouteTableModule = typeof import('../lib/runtime/route-table.ts');

export const parts: FunctionParts = {
  capabilities: [systemCapability, metadataCapability],
  adapters: [dynamodb],
  routeTable: async (services) => ((await import(routeTableUrl())) as RouteTableModule).everyRoute(services),
};
export const handler = routeGroupHandler(systemCapability, parts);

/** Bundled, the route table's own file beside this one; from source, its module. */
function routeTableUrl(): string {
  const here = import.meta.url;
  const path = here.endsWith('.ts') ? `../${ROUTE_TABLE_MODULE.entry}` : `./${ROUTE_TABLE_MODULE.file}`;
  return new URL(path, here).href;
}
