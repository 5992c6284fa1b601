/**
 * The services every host wires the same way, over whatever stores the host chose.
 */
import type { ServiceConfig } from '../config/service-config.ts';
import type { Logger } from '../log/logger.ts';
import { MetadataService } from '../metadata/service.ts';
import type { Clock } from '../model/clock.ts';
import type { Stores } from '../store/ports.ts';
import { SERVICE_VERSION } from './version.ts';

export interface Services {
  config: ServiceConfig;
  logger: Logger;
  clock: Clock;
  stores: Stores;
  metadata: MetadataService;
  version: string;
}

export function createServices(deps: {
  config: ServiceConfig;
  logger: Logger;
  clock: Clock;
  stores: Stores;
}): Services {
  return {
    ...deps,
    metadata: new MetadataService(deps.stores.workflowDefs, deps.stores.taskDefs, deps.clock),
    version: SERVICE_VERSION,
  };
}
