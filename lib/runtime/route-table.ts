/**
 * Every route of the service, for the system function's API document: a Lambda function is made of
 * its own capabilities only (lib/runtime/aws.ts), so its router holds only its own group's routes.
 * The document reads the routes' definitions and nothing else, and building a route never calls its
 * dependencies (test/http/route-contracts.test.ts), so they are built over the whole service
 * composed on stand-in stores in memory, never served. The system function imports this module on
 * the document's first request, bundled as a file of its own beside its code (the system
 * capability's `modules`): its cold start loads no other capability.
 */
import type { RouteDef } from '../http/router.ts';
import type { Services } from './compose.ts';
import { createServices } from './services.ts';
import { createMemoryStores } from './stores.ts';

export function everyRoute(services: Services): readonly RouteDef[] {
  const whole = createServices({
    config: services.config,
    logger: services.logger,
    clock: services.clock,
    stores: createMemoryStores(),
    decisions: services.decisions,
    scripts: services.scripts,
    // The token route is in the table when security is on; its keys are never read here.
    apiKeys: () => Promise.resolve([]),
  });
  return whole.routes();
}
