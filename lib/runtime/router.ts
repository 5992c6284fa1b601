/**
 * Builds the router of a host from the capabilities: every capability whose gate is on (and, for a
 * Lambda, only the one it serves). A gated-off capability has no routes, so its paths answer 404
 * with the error body, locally and on AWS alike.
 */

import { enabledCapabilities } from '../capabilities.ts';
import { Router } from '../http/router.ts';
import { routesOf, type Services } from './services.ts';

export function createRouter(services: Services, only?: readonly string[]): Router {
  const router = new Router({
    logger: services.logger,
    instance: services.config.requireString('service.instance-id'),
    maxJsonDepth: services.config.number('service.server.max-json-depth'),
    auth: services.auth,
  });
  // The local host serves every group: the OpenAPI document's table is the same routes, built once.
  router.addAll(
    only
      ? routesOf(
          services,
          enabledCapabilities(services.config).filter((capability) => only.includes(capability.name)),
        )
      : services.routeTable(),
  );
  return router;
}
