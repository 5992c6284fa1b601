/**
 * Builds the router of a host from the capabilities: every capability whose gate is on (and, for a
 * Lambda, only the one it serves). A gated-off capability has no routes, so its paths answer 404
 * with the error body, locally and on AWS alike.
 */

import { CAPABILITIES } from '../capabilities.ts';
import type { Capability } from '../capability.ts';
import type { ServiceConfig } from '../config/service-config.ts';
import { Router } from '../http/router.ts';
import type { Services } from './services.ts';

/** The capabilities that exist with this configuration: ungated ones, and gated ones whose gate is on. */
export function enabledCapabilities(config: ServiceConfig): Capability[] {
  return CAPABILITIES.filter((capability) => !capability.gate || config.gate(capability.gate));
}

export function createRouter(services: Services, only?: readonly string[]): Router {
  const router = new Router({
    logger: services.logger,
    instance: services.config.requireString('service.instance-id'),
    maxJsonDepth: services.config.number('service.server.max-json-depth'),
    auth: services.auth,
  });
  for (const capability of enabledCapabilities(services.config)) {
    if (only && !only.includes(capability.name)) continue;
    router.addAll(capability.routes(services));
  }
  return router;
}
