/**
 * The services every host wires the same way, over whatever stores and decision queue the host
 * chose.
 */
import type { CapabilityStores } from '../capabilities.ts';
import type { ServiceContext } from '../capability.ts';
import type { ServiceConfig } from '../config/service-config.ts';
import type { ScriptEvaluator } from '../engine/script/evaluator.ts';
import { eventProcessorOf } from '../events/capability.ts';
import type { EventPublisher } from '../events/sinks.ts';
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
import type { LocalWorkQueue } from '../queue/local-work-queue.ts';
import type { DecisionQueue, WorkQueue } from '../queue/ports.ts';
import {
  type EventMessage,
  type SystemTaskMessage,
  unwiredWorkQueue,
  type WorkQueues,
} from '../queue/work-queues.ts';
import { retainingScheduleExecutions } from '../scheduler/retention.ts';
import { schemaRegistryOf } from '../schemas/capability.ts';
import { RegistryEnforcer } from '../schemas/enforcer.ts';
import { assertSchemaStorage } from '../schemas/storage-check.ts';
import type { SearchIndex } from '../search/ports.ts';
import { apiAuthOf } from '../security/api-auth.ts';
import type { KeySource } from '../security/api-keys.ts';
import { retainingPollData } from '../tasks/poll-data-retention.ts';
import { executionStoreStack } from '../workflows/execution-stack.ts';
import type { RunWatcher } from '../workflows/progress.ts';
import { createEngine } from './engine.ts';
import { enabledCapabilities } from './router.ts';
import type { ServiceStores } from './stores.ts';
import { bounded, localEventQueue, localSystemTaskQueue } from './system-task-pool.ts';
import { SERVICE_VERSION } from './version.ts';

/** Every capability's routes see these (ServiceContext), with every capability's stores. */
export interface Services extends ServiceContext<CapabilityStores> {
  stores: ServiceStores;
  /** Large inputs and outputs (lib/payloads); `stores.executions` keeps them there. */
  payloads: PayloadStore;
  /** Service metrics, where the host records them (EMF on AWS). */
  metrics?: Metrics;
  /** The in-process system-task queue (HTTP tasks), when the host did not give its own; closed with the host. */
  localSystemTasks?: LocalWorkQueue<SystemTaskMessage>;
  /** The in-process queue of `conductor:` events (EVENT tasks), when the host did not give its own. */
  localEvents?: LocalWorkQueue<EventMessage>;
}

export interface ServiceDeps {
  config: ServiceConfig;
  logger: Logger;
  /** Service metrics (EMF on AWS, lib/log/metrics.ts); none when absent. */
  metrics?: Metrics;
  clock: Clock;
  stores: ServiceStores;
  decisions: DecisionQueue;
  /** The host's work queues; a test host may leave them unwired (sends fail). */
  workQueues?: WorkQueues;
  scripts: ScriptEvaluator;
  /** Where large payloads go; the hosts give their own, tests may leave it to memory. */
  payloads?: PayloadStore;
  ids?: IdGenerator;
  /** Commit notifications for waiting requests (default: in-process only). */
  watcher?: RunWatcher;
  /** Queue notifications for long polls (default: in-process only). */
  queueWatcher?: Notifier;
  /** Where async system tasks go (SQS on AWS); default: an in-process pool in this process. */
  systemTasks?: WorkQueue<SystemTaskMessage>;
  /** The search index search answers from (OpenSearch on AWS when configured); default: the store. */
  searchIndex?: SearchIndex;
  /** Where EVENT tasks' `conductor:` messages go (SQS on AWS); default: handled in this process. */
  events?: WorkQueue<EventMessage>;
  /** Adapters of the outside sinks EVENT tasks may publish to (sqs:, eventbridge:). */
  eventPublishers?: { sqs?: EventPublisher; eventbridge?: EventPublisher };
  /** The API keys, where the host keeps them outside the configuration (Secrets Manager on AWS). */
  apiKeys?: KeySource;
}

export function createServices(deps: ServiceDeps): Services {
  const { config } = deps;
  assertSchemaStorage(config);
  const payloads = deps.payloads ?? new MemoryPayloadStore();
  const stores: ServiceStores = {
    ...deps.stores,
    // Every reader and writer of runs goes through one stack (lib/workflows/execution-stack.ts).
    executions: executionStoreStack(deps.stores.executions, {
      externalize: {
        payloads,
        thresholdBytes: config.number('service.external-payload.threshold-bytes'),
        recordBudgetBytes: config.number('service.external-payload.record-budget-bytes'),
      },
      retention: {
        runsMs: config.number('service.workflow.retention'),
        logsMs: config.number('service.task.log-retention'),
        clock: deps.clock,
      },
    }),
    pollData: retainingPollData(
      deps.stores.pollData,
      config.number('service.task.poll-data-retention'),
      deps.clock,
    ),
    schedules: retainingScheduleExecutions(
      deps.stores.schedules,
      config.number('service.scheduler.execution-retention'),
      deps.clock,
    ),
  };
  const localSystemTasks = deps.systemTasks ? undefined : localSystemTaskQueue(deps.logger);
  const localEvents = deps.events ? undefined : localEventQueue(deps.logger);
  const conductorEvents = localEvents ?? deps.events ?? unwiredWorkQueue<EventMessage>('events');
  const metadata = new MetadataService(stores.workflowDefs, stores.taskDefs, deps.clock);
  const engine = createEngine({
    stores,
    payloads: new PayloadLocations(
      payloads,
      config.number('service.external-payload.url-expiration-seconds'),
    ),
    metadata,
    decisions: deps.decisions,
    scripts: deps.scripts,
    clock: deps.clock,
    ids: deps.ids ?? randomIds,
    logger: deps.logger,
    metrics: deps.metrics,
    watcher: deps.watcher,
    queueWatcher: deps.queueWatcher,
    messages: stores.messages,
    maxBatchSize: config.number('service.workflow-message-queue.maxBatchSize'),
    // Payloads cross their schemas through the registry the /api/schema routes serve (one cache).
    schemas: new RegistryEnforcer(schemaRegistryOf(stores.schemas, deps.clock, config)),
    http: {
      allowPrivateNetworks: config.boolean('service.http-task.allow-private-networks'),
      queue: deps.systemTasks ?? localSystemTasks,
    },
    events: { conductor: conductorEvents, ...deps.eventPublishers },
  });
  localSystemTasks?.register(
    bounded(config.number('service.http-task.concurrency'), (message) => engine.systemTasks.run(message)),
  );
  const workQueues = deps.workQueues ?? { schedules: unwiredWorkQueue('schedules') };
  let routeTable: readonly RouteDef[] | undefined;
  const services: Services = {
    ...deps,
    stores,
    payloads,
    workQueues,
    metadata,
    engine,
    localSystemTasks,
    localEvents,
    auth: apiAuthOf(config, deps.clock, deps.apiKeys),
    routeTable: () => {
      routeTable ??= enabledCapabilities(config).flatMap((capability) => capability.routes(services));
      return routeTable;
    },
    version: SERVICE_VERSION,
  };
  if (localEvents) {
    const processor = eventProcessorOf(services);
    localEvents.register(async (message) => void (await processor.handle(message)));
  }
  return services;
}
