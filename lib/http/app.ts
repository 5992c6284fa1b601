/**
 * Builds the router of a host from the route table: every group whose gate is on (and, for a
 * Lambda, only the group it serves). A gated-off group has no routes, so its paths answer 404 with
 * the error body, locally and on AWS alike.
 */
import type { Services } from '../runtime/services.ts';
import { ROUTE_GROUPS, type RouteGroupName } from './route-table.ts';
import { type RouteDef, Router } from './router.ts';
import { metadataRoutes } from './routes/metadata.ts';
import { systemRoutes } from './routes/system.ts';
import { taskRoutes } from './routes/tasks.ts';
import { workflowRoutes } from './routes/workflows.ts';

const builders: Record<RouteGroupName, (services: Services) => RouteDef[]> = {
  system: (s) =>
    systemRoutes({
      version: s.version,
      checkHealth: async () => {
        await s.stores.taskDefs.get('__health_check__');
      },
    }),
  metadata: (s) => metadataRoutes(s.metadata),
  workflows: (s) => workflowRoutes(s.engine),
  tasks: (s) => taskRoutes(s.engine),
};

export function createRouter(services: Services, only?: readonly RouteGroupName[]): Router {
  const router = new Router({
    logger: services.logger,
    instance: services.config.requireString('service.instance-id'),
  });
  for (const group of ROUTE_GROUPS) {
    if (only && !only.includes(group.name)) continue;
    if (group.gate && !services.config.gate(group.gate)) continue;
    router.addAll(builders[group.name](services));
  }
  return router;
}
