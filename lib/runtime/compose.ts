/**
 * The fold every host builds its services with, over the capabilities it is made of and whatever
 * stores, decision queue and work queues it chose: each capability's checks, store decorators,
 * engine contributions and provided services (lib/capability-contract.ts). No capability is named
 * here, and nothing here loads one: the local host folds the whole list (lib/runtime/services.ts),
 * a Lambda function only its own part of it (lib/runtime/aws.ts), so its bundle holds no other.
 */
import type { AnyCapability, CapabilityStores } from '../capabilities.ts';
import type { DecorateContext, ServiceContext } from '../capability-contract.ts';
import { queueUrlProperties } from '../catalog.ts';
import { gatedOn } from '../config/properties.ts';
import type { ServiceConfig } from '../config/service-config.ts';
import type { EventPublisher } from '../engine/event-sinks/sinks.ts';
import type { ScriptEvaluator } from '../engine/script/evaluator.ts';
import type { RouteDef } from '../http/router.ts';
import type { Logger } from '../log/logger.ts';
import type { Metrics } from '../log/metrics.ts';
import { MetadataService } from '../metadata/service.ts';
import type { Clock } from '../model/clock.ts';
import { type IdGenerator, randomIds } from '../model/ids.ts';
import type { Notifier } from '../model/notifier.ts';
import { PayloadLocations } from '../payloads/locations.ts';
import { MemoryPayloadStore } from '../payloads/memory.ts';
import type { PayloadStore } from '../payloads/ports.ts';
import type { DecisionQueue, WorkQueue } from '../queue/ports.ts';
import {
  type EventMessage,
  type SystemTaskMessage,
  type WorkQueueName,
  workQueuesOf,
} from '../queue/work-queues.ts';
import type { SearchIndex } from '../search/ports.ts';
import { apiAuthOf } from '../security/api-auth.ts';
import type { KeySource } from '../security/api-keys.ts';
import type { Engine } from '../workflows/engine-api.ts';
import { LocalRunWatcher, type RunWatcher } from '../workflows/progress.ts';
import type { EngineDeps } from './engine.ts';
import { memoryStoresOf, type ServiceStores } from './store-bundle.ts';
import { SERVICE_VERSION } from './version.ts';

/** Every capability's routes see these (ServiceContext), with every capability's stores. */
export interface Services extends ServiceContext<CapabilityStores> {
  stores: ServiceStores;
  /** Large inputs and outputs (lib/payloads); `stores.executions` keeps them there. */
  payloads: PayloadStore;
  /** Service metrics, where the host records them (EMF on AWS). */
  metrics?: Metrics;
  /** The capabilities these services are made of (a Lambda function's own, or every one). */
  capabilities: readonly AnyCapability[];
  /** The routes of its enabled capabilities, built once: what a host serving them all routes. */
  routes(): readonly RouteDef[];
  /** What a capability provides (Capability.provides) over these services, built once. */
  provided(capability: AnyCapability): object;
}

/** Builds the engine (lib/runtime/engine.ts createEngine). */
export type EngineFactory = (deps: EngineDeps) => Engine;

/**
 * What a host is made of: its capabilities and, where it starts, decides or changes runs, the
 * engine. The local host has every capability and the engine (lib/runtime/services.ts); each Lambda
 * function names its own (its entry in functions/).
 */
export interface ServiceParts {
  /**
   * Folded in this order: their stores, decorators, engine contributions, routes and provided
   * services. A function that runs the engine has every capability the engine is made of
   * (lib/engine-capabilities.ts).
   */
  capabilities: readonly AnyCapability[];
  /** Absent: the services have no engine, and asking for it fails, naming the function's parts. */
  engine?: EngineFactory;
  /**
   * Every route of the service, where the capabilities above are not all of them (the system
   * function's API document: lib/runtime/route-table.ts). Absent: their routes.
   */
  routeTable?: (services: Services) => Promise<readonly RouteDef[]>;
}

export interface ServiceDeps {
  config: ServiceConfig;
  logger: Logger;
  /** Service metrics (EMF on AWS, lib/log/metrics.ts); none when absent. */
  metrics?: Metrics;
  clock: Clock;
  stores: ServiceStores;
  decisions: DecisionQueue;
  /**
   * The host's work queues (SQS on AWS, the local consumer host's in process); a queue left out is
   * unwired: a send fails, naming it.
   */
  workQueues?: Readonly<Record<WorkQueueName, WorkQueue<unknown>>>;
  scripts: ScriptEvaluator;
  /** Where large payloads go; the hosts give their own, tests may leave it to memory. */
  payloads?: PayloadStore;
  ids?: IdGenerator;
  /** Commit notifications for waiting requests (default: in-process only). */
  watcher?: RunWatcher;
  /** Queue notifications for long polls (default: in-process only). */
  queueWatcher?: Notifier;
  /** The search index search answers from (OpenSearch on AWS when configured); default: the store. */
  searchIndex?: SearchIndex;
  /** Adapters of the outside sinks EVENT tasks may publish to (sqs:, eventbridge:). */
  eventPublishers?: { sqs?: EventPublisher; eventbridge?: EventPublisher };
  /** The API keys, where the host keeps them outside the configuration (Secrets Manager on AWS). */
  apiKeys?: KeySource;
}

export function composeServices(parts: ServiceParts, deps: ServiceDeps): Services {
  const { config, clock } = deps;
  const all = parts.capabilities;
  for (const capability of all) capability.checkConfig?.(config);
  const payloads = deps.payloads ?? new MemoryPayloadStore();
  // Writes to runs are published here, to the requests waiting on them (lib/workflows/progress.ts).
  const watcher = deps.watcher ?? new LocalRunWatcher();
  const stores = decorated(all, deps.stores, { config, clock, payloads, watcher });
  const workQueues = workQueuesOf(deps.workQueues ?? {}, queueUrlProperties());
  const metadata = new MetadataService(stores.workflowDefs, stores.taskDefs, clock);
  const engine = parts.engine?.({
    stores,
    // A test run's throwaway engine runs on fresh memory stores of the same capabilities.
    simulationStores: () => memoryStoresOf(all),
    payloads: new PayloadLocations(
      payloads,
      config.number('service.external-payload.url-expiration-seconds'),
    ),
    metadata,
    decisions: deps.decisions,
    scripts: deps.scripts,
    clock,
    ids: deps.ids ?? randomIds,
    logger: deps.logger,
    metrics: deps.metrics,
    watcher,
    queueWatcher: deps.queueWatcher,
    peekHintMs: config.number('service.tasks.poll.peek-hints'),
    contributions: all.flatMap((capability) =>
      capability.engine ? [capability.engine({ config, clock, stores })] : [],
    ),
    http: {
      allowPrivateNetworks: config.boolean('service.http-task.allow-private-networks'),
      queue: workQueues.of<SystemTaskMessage>('system-tasks'),
    },
    events: { conductor: workQueues.of<EventMessage>('events'), ...deps.eventPublishers },
  });
  // The capability that keeps access keys (applications), where the function has it: tokens of
  // stored keys are checked against their key on every request.
  const directories = all.flatMap((capability) =>
    capability.keyDirectory ? [capability.keyDirectory(stores)] : [],
  );
  if (directories.length > 1) throw new Error('More than one capability keeps access keys');
  const provided = new Map<AnyCapability, object>();
  let routes: readonly RouteDef[] | undefined;
  let routeTable: Promise<readonly RouteDef[]> | undefined;
  const services: Services = {
    ...deps,
    stores,
    payloads,
    workQueues,
    metadata,
    get engine(): Engine {
      if (engine === undefined) {
        throw new Error(
          `This function is built without the engine (its capabilities: ${all.map((c) => c.name).join(', ') || 'none'})`,
        );
      }
      return engine;
    },
    auth: apiAuthOf(config, clock, deps.apiKeys, directories[0]),
    capabilities: all,
    provided: (capability) => {
      let given = provided.get(capability);
      if (given === undefined) {
        given = capability.provides?.(services) ?? {};
        provided.set(capability, given);
      }
      return given;
    },
    routes: () => {
      routes ??= routesOf(services, enabledIn(all, config));
      return routes;
    },
    routeTable: () => {
      routeTable ??= parts.routeTable?.(services) ?? Promise.resolve(services.routes());
      return routeTable;
    },
    payloadReferences: (visit) => payloadReferencesOf(all, stores, visit),
    version: SERVICE_VERSION,
  };
  return services;
}

/** The capabilities of `all` that exist with this configuration: ungated ones, and gated ones whose gate is on. */
export function enabledIn(all: readonly AnyCapability[], config: ServiceConfig): AnyCapability[] {
  return all.filter((capability) => gatedOn(capability, (gate) => config.gate(gate)));
}

/** The routes of these capabilities over the services (each with what it provides). */
export function routesOf(services: Services, of: readonly AnyCapability[]): RouteDef[] {
  return of.flatMap((capability) => capability.routes(services, services.provided(capability)));
}

/** Every payload key the capabilities' stores name, one capability after the other. */
async function payloadReferencesOf(
  all: readonly AnyCapability[],
  stores: ServiceStores,
  visit: (key: string) => void,
): Promise<void> {
  for (const capability of all) await capability.payloadReferences?.list(stores, visit);
}

/** Each capability's decorators over its own stores, once, for every reader. */
function decorated(
  all: readonly AnyCapability[],
  stores: ServiceStores,
  context: DecorateContext,
): ServiceStores {
  const result: ServiceStores = { ...stores };
  for (const capability of all) {
    if (capability.decorate) Object.assign(result, capability.decorate(result, context));
  }
  return result;
}
