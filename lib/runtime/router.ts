/**
 * Builds the router of a host from the capabilities it is made of: every one whose gate is on
 * (and, for a Lambda, only the one it serves). A gated-off capability has no routes, so its paths
 * answer 404 with the error body, locally and on AWS alike.
 */

import { Router } from '../http/router.ts';
import { enabledIn, routesOf, type Services } from './compose.ts';

/**
 * Every enabled capability's routes (the local host), or only those of `group` (a Lambda function
 * serves one group, and compiles a route's contract on the route's first request: its cold start
 * compiles only the routes it is asked for, where the local host compiles every one at start).
 */
export function createRouter(services: Services, group?: string): Router {
  const router = new Router({
    logger: services.logger,
    instance: services.config.requireString('service.instance-id'),
    maxJsonDepth: services.config.number('service.server.max-json-depth'),
    auth: services.auth,
    compileContracts: group === undefined ? 'when-added' : 'when-first-used',
  });
  // The local host serves every group: the OpenAPI document's table is the same routes, built once.
  router.addAll(
    group === undefined
      ? services.routes()
      : routesOf(
          services,
          enabledIn(services.capabilities, services.config).filter((capability) => capability.name === group),
        ),
  );
  return router;
}
