/**
 * The whole service: every capability of the list and the engine, composed as every host composes
 * its services (lib/runtime/compose.ts). The local host, tests and benchmarks are built this way; a
 * Lambda function is built from its own part of the list (lib/runtime/aws.ts).
 */
import { CAPABILITIES } from '../capabilities.ts';
import { composeServices, type ServiceDeps, type ServiceParts, type Services } from './compose.ts';
import { createEngine } from './engine.ts';

/** Every capability and the engine. */
export const WHOLE_SERVICE: ServiceParts = { capabilities: CAPABILITIES, engine: createEngine };

export function createServices(deps: ServiceDeps): Services {
  return composeServices(WHOLE_SERVICE, deps);
}
