/**
 * The services every host wires the same way, over whatever stores and decision queue the host
 * chose.
 */
import type { CapabilityStores } from '../capabilities.ts';
import type { ServiceContext } from '../capability.ts';
import type { ServiceConfig } from '../config/service-config.ts';
import type { ScriptEvaluator } from '../engine/script/evaluator.ts';
import type { Logger } from '../log/logger.ts';
import { MetadataService } from '../metadata/service.ts';
import type { Clock } from '../model/clock.ts';
import { type IdGenerator, randomIds } from '../model/ids.ts';
import type { DecisionQueue } from '../queue/ports.ts';
import type { RunWatcher } from '../workflows/progress.ts';
import { createEngine } from './engine.ts';
import type { ServiceStores } from './stores.ts';
import { SERVICE_VERSION } from './version.ts';

/** Every capability's routes see these (ServiceContext), with every capability's stores. */
export interface Services extends ServiceContext<CapabilityStores> {
  stores: ServiceStores;
}

export interface ServiceDeps {
  config: ServiceConfig;
  logger: Logger;
  clock: Clock;
  stores: ServiceStores;
  decisions: DecisionQueue;
  scripts: ScriptEvaluator;
  ids?: IdGenerator;
  /** Commit notifications for waiting requests (default: in-process only). */
  watcher?: RunWatcher;
}

export function createServices(deps: ServiceDeps): Services {
  const metadata = new MetadataService(deps.stores.workflowDefs, deps.stores.taskDefs, deps.clock);
  const engine = createEngine({
    stores: deps.stores,
    metadata,
    decisions: deps.decisions,
    scripts: deps.scripts,
    clock: deps.clock,
    ids: deps.ids ?? randomIds,
    logger: deps.logger,
    watcher: deps.watcher,
  });
  return { ...deps, metadata, engine, version: SERVICE_VERSION };
}
