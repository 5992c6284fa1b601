/**
 * Composition root of the local host: one process serving every route group over node:http, with
 * the embedded on-disk store by default (data survives restarts), the in-memory store by flag, or
 * any DynamoDB endpoint. Background work runs in process: decides and wake-up timers on the local
 * decision queue, periodic jobs (lib/jobs) on the local job runner. The built management UI
 * (`service.ui.dir`) is served at `/` beside the API.
 */

import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { CONSUMERS, JOBS } from '../capabilities.ts';
import { ConfigError } from '../config/load.ts';
import type { ServiceConfig } from '../config/service-config.ts';
import { defaultEventBridgePublisher } from '../engine/event-sinks/eventbridge.ts';
import { defaultSqsEventPublisher } from '../engine/event-sinks/sqs.ts';
import { createQuickJsEvaluator } from '../engine/script/evaluator.ts';
import { PARSER_MAX_HEADER_BYTES } from '../http/edge.ts';
import { clientErrorHandler, nodeHandler } from '../http/node-adapter.ts';
import { staticSite } from '../http/static-site.ts';
import { LocalConsumerHost } from '../jobs/local-consumers.ts';
import { LocalJobRunner } from '../jobs/local-runner.ts';
import { createLogger, LOG_LEVELS, type Logger } from '../log/logger.ts';
import { type Clock, systemClock } from '../model/clock.ts';
import { FilesystemPayloadStore } from '../payloads/filesystem.ts';
import { MemoryPayloadStore } from '../payloads/memory.ts';
import type { PayloadStore } from '../payloads/ports.ts';
import { LocalDecisionQueue } from '../queue/local.ts';
import type { DecisionMessage } from '../queue/work-queues.ts';
import { dynamoClient, startEmbeddedDynamo } from '../store/dynamodb/embedded.ts';
import { dynamoSession } from '../store/dynamodb/index.ts';
import { EmbeddedDb, StoreDamagedError, StoreLockedError } from '../store/embedded/database.ts';
import type { Services } from './compose.ts';
import { jobDepsOf } from './job-deps.ts';
import { createRouter } from './router.ts';
import { createServices } from './services.ts';
import { dataDirectoryInUse, earlierStoreFound, listenFailure, storeDamaged } from './start-errors.ts';
import { ensureTables, type ServiceStores, tableNamesOf } from './store-bundle.ts';
import { createDynamoStores, createEmbeddedStores, createMemoryStores } from './stores.ts';

export interface LocalServer {
  url: string;
  port: number;
  services: Services;
  /** The periodic jobs (lib/jobs), running on their intervals; `tick(now)` runs them at once. */
  jobs: LocalJobRunner;
  /** Every queue consumer of the capabilities, in process (lib/jobs/local-consumers.ts). */
  consumers: LocalConsumerHost;
  /** Stops accepting requests, lets in-flight ones finish, then closes the store. */
  close(): Promise<void>;
}

export interface LocalServerOptions {
  logger?: Logger;
  clock?: Clock;
  /**
   * Stores to serve instead of the configured ones (benchmarks wrap them to count operations); the
   * server closes them when it closes.
   */
  stores?: ServiceStores;
}

export async function createLocalStores(config: ServiceConfig, logger: Logger): Promise<ServiceStores> {
  const kind = localStoreKind(config);
  if (kind === 'memory') return createMemoryStores();
  const dataRoot = resolve(config.requireString('service.local.data-dir'));
  if (kind === 'embedded') {
    const embedded = await openLocalDatabase(dataRoot, config.boolean('service.local.fsync'));
    logger.info('embedded store opened', { dataDir: resolve(dataRoot, EMBEDDED_DIR) });
    return createEmbeddedStores(embedded);
  }
  const tables = tableNamesOf(config);
  const endpoint = config.string('service.dynamodb.endpoint');
  if (endpoint) {
    const session = dynamoSession(dynamoClient(endpoint, config.requireString('service.dynamodb.region')));
    await ensureTables(session, tables);
    return createDynamoStores(session, tables);
  }
  // The earlier default: dynalite (DynamoDB on LevelDB) over loopback, kept for data written by it.
  const dataDir = resolve(dataRoot, DYNALITE_DIR);
  mkdirSync(dataDir, { recursive: true });
  const dynalite = await startEmbeddedDynamo({ path: dataDir }).catch((error: unknown) => {
    throw error instanceof StoreLockedError ? dataDirectoryInUse(dataRoot) : error;
  });
  logger.info('dynalite store started', { dataDir });
  const session = dynamoSession(dynalite.client(), () => dynalite.close());
  await ensureTables(session, tables);
  return createDynamoStores(session, tables);
}

/** Where each local store keeps its data under service.local.data-dir. */
const EMBEDDED_DIR = 'embedded';
const DYNALITE_DIR = 'dynamodb';

/**
 * The store the local server uses: service.store, except that a DynamoDB endpoint given while the
 * store is left at its default selects DynamoDB, as it did before the embedded store existed.
 */
export function localStoreKind(config: ServiceConfig): 'embedded' | 'dynamodb' | 'memory' {
  const kind = config.oneOf('service.store', ['embedded', 'dynamodb', 'memory'] as const);
  if (kind === 'embedded' && config.string('service.dynamodb.endpoint')) return 'dynamodb';
  return kind;
}

/**
 * Opens the embedded database under the data directory. A directory that holds only the earlier
 * default's data (dynalite, in dynamodb/) is refused rather than silently started empty beside it.
 */
async function openLocalDatabase(dataRoot: string, fsync: boolean): Promise<EmbeddedDb> {
  const dir = resolve(dataRoot, EMBEDDED_DIR);
  const earlier = resolve(dataRoot, DYNALITE_DIR);
  if (!existsSync(dir) && existsSync(earlier) && readdirSync(earlier).length > 0) {
    throw earlierStoreFound(dataRoot, earlier);
  }
  mkdirSync(dir, { recursive: true });
  return EmbeddedDb.open(dir, { fsync }).catch((error: unknown) => {
    if (error instanceof StoreLockedError) throw dataDirectoryInUse(dataRoot);
    if (error instanceof StoreDamagedError) throw storeDamaged(dir, error);
    throw error;
  });
}

/**
 * Large payloads live beside the records: in memory with the memory store, else in files under the
 * data directory, so they outlive a restart as the records pointing at them do.
 */
export function createLocalPayloads(config: ServiceConfig): PayloadStore {
  if (localStoreKind(config) === 'memory') return new MemoryPayloadStore();
  return new FilesystemPayloadStore(resolve(config.requireString('service.local.data-dir'), 'payloads'));
}

export async function startLocalServer(
  config: ServiceConfig,
  options: LocalServerOptions = {},
): Promise<LocalServer> {
  const logger =
    options.logger ??
    createLogger({
      level: config.oneOf('service.log.level', LOG_LEVELS),
      format: config.string('service.log.format') === 'json' ? 'json' : 'text',
    });
  const clock = options.clock ?? systemClock;
  // Nothing feeds an OpenSearch index locally (the indexer runs on DynamoDB Streams, AWS only): a
  // local server asked for it would answer from a stale or empty index, so it refuses to start.
  if (config.string('service.search.backend') === 'opensearch') {
    throw new ConfigError(
      'service.search.backend=opensearch is for the AWS stack; the local server searches its store',
    );
  }
  const stores = options.stores ?? (await createLocalStores(config, logger));
  // Every consumer of the capabilities runs here, each over its own in-process queue: decides,
  // schedule fires (delayed to their second on in-process timers, as SQS delays them on AWS),
  // HTTP tasks, conductor: events.
  const consumers = new LocalConsumerHost({
    consumers: CONSUMERS,
    logger,
    gateOn: (gate) => config.gate(gate),
    number: (property) => config.number(property),
  });
  const decisions = new LocalDecisionQueue(clock, logger, consumers.queue<DecisionMessage>('decisions'));
  const scripts = createQuickJsEvaluator();
  const payloads = createLocalPayloads(config);
  const workQueues = consumers.queues();
  const services = createServices({
    config,
    logger,
    clock,
    stores,
    decisions,
    workQueues,
    scripts,
    payloads,
    eventPublishers: config.boolean('service.events.aws-sinks.enabled')
      ? { sqs: defaultSqsEventPublisher(), eventbridge: defaultEventBridgePublisher() }
      : undefined,
  });
  // Everything below the HTTP server, in shutdown order (the jobs once they run).
  let jobs: LocalJobRunner | undefined;
  const release = async () => {
    await jobs?.stop();
    await decisions.close();
    await consumers.close();
    await scripts.close();
    await stores.close();
  };
  let router: ReturnType<typeof createRouter>;
  try {
    // Capabilities read their configuration as their routes are built: a wrong value stops the
    // start here, before any background work begins.
    router = createRouter(services);
  } catch (error) {
    await release();
    throw error;
  }
  consumers.start((consumer) => jobDepsOf(services, consumer));
  // The first tick catches up (lib/jobs/sweeper.ts): every run with a stored wake-up is decided,
  // which re-arms the in-process timers the last process took with it.
  const runner = new LocalJobRunner({
    jobs: JOBS,
    deps: jobDepsOf(services),
    depsFor: (job) => jobDepsOf(services, job),
    gateOn: (gate) => config.gate(gate),
  });
  jobs = runner;
  await runner.start();
  const instance = config.requireString('service.instance-id');
  const apiHandler = nodeHandler({
    router,
    logger,
    instance,
    maxBodyBytes: config.number('service.server.max-body-bytes'),
  });
  const uiDir = config.string('service.ui.dir');
  const ui = uiDir && staticSite({ dir: uiDir, claims: (pathname) => router.claims(pathname) });
  const server = createServer(
    { keepAliveTimeout: 5000, maxHeaderSize: PARSER_MAX_HEADER_BYTES },
    ui ? (req, res) => ui(req, res) || apiHandler(req, res) : apiHandler,
  );
  server.on('clientError', clientErrorHandler(instance));
  const listenPort = config.number('service.server.port');
  const listenHost = config.requireString('service.server.host');
  try {
    await listen(server, listenPort, listenHost);
  } catch (error) {
    await release();
    throw listenFailure(error, listenHost, listenPort);
  }
  const { port } = server.address() as AddressInfo;
  const host = config.requireString('service.server.host');
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    services,
    jobs: runner,
    consumers,
    close: () => {
      closing ??= (async () => {
        await new Promise<void>((done) => {
          // In-flight requests finish; each keep-alive connection is closed as soon as it is idle.
          const sweep = setInterval(() => server.closeIdleConnections(), 20);
          server.close(() => {
            clearInterval(sweep);
            done();
          });
          server.closeIdleConnections();
        });
        await release();
      })();
      return closing;
    },
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
