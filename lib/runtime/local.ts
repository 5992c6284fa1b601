/**
 * Composition root of the local host: one process serving every route group over node:http, with
 * the embedded on-disk store by default (data survives restarts), the in-memory store by flag, or
 * any DynamoDB endpoint. Later: the in-process decider, timers and the UI.
 */
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import type { ServiceConfig } from '../config/service-config.ts';
import { createQuickJsEvaluator } from '../engine/script/evaluator.ts';
import { nodeHandler } from '../http/node-adapter.ts';
import { createLogger, LOG_LEVELS, type Logger } from '../log/logger.ts';
import { type Clock, systemClock } from '../model/clock.ts';
import { LocalDecisionQueue } from '../queue/local.ts';
import { dynamoClient, startEmbeddedDynamo } from '../store/dynamodb/embedded.ts';
import { createRouter } from './router.ts';
import { createServices, type Services } from './services.ts';
import {
  createDynamoStores,
  createMemoryStores,
  ensureTables,
  type ServiceStores,
  tableNamesOf,
} from './stores.ts';

export interface LocalServer {
  url: string;
  port: number;
  services: Services;
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
  if (config.string('service.store') === 'memory') return createMemoryStores();
  const tables = tableNamesOf(config);
  const endpoint = config.string('service.dynamodb.endpoint');
  if (endpoint) {
    const client = dynamoClient(endpoint, config.requireString('service.dynamodb.region'));
    await ensureTables(client, tables);
    return createDynamoStores(client, tables);
  }
  const dataDir = resolve(config.requireString('service.local.data-dir'), 'dynamodb');
  mkdirSync(dataDir, { recursive: true });
  const embedded = await startEmbeddedDynamo({ path: dataDir });
  logger.info('embedded store started', { dataDir });
  const client = embedded.client();
  await ensureTables(client, tables);
  return createDynamoStores(client, tables, () => embedded.close());
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
  const stores = options.stores ?? (await createLocalStores(config, logger));
  const decisions = new LocalDecisionQueue(clock, logger);
  const scripts = createQuickJsEvaluator();
  const services = createServices({ config, logger, clock, stores, decisions, scripts });
  decisions.bind((workflowId) => services.engine.executor.decide(workflowId));
  await restoreWakeups(stores, decisions);
  const router = createRouter(services);
  const server = createServer(
    { keepAliveTimeout: 5000 },
    nodeHandler({
      router,
      logger,
      instance: config.requireString('service.instance-id'),
      maxBodyBytes: config.number('service.server.max-body-bytes'),
    }),
  );
  try {
    await listen(server, config.number('service.server.port'), config.requireString('service.server.host'));
  } catch (error) {
    await decisions.close();
    await scripts.close();
    await stores.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const host = config.requireString('service.server.host');
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    services,
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
        await decisions.close();
        await scripts.close();
        await stores.close();
      })();
      return closing;
    },
  };
}

/**
 * After a restart, every run with a stored wake-up is decided, which re-arms its timer. New runs
 * are stored due at creation, so a run whose first decide was lost is found here too.
 */
async function restoreWakeups(stores: ServiceStores, decisions: LocalDecisionQueue): Promise<void> {
  // Every run with a stored wake-up is decided once now, not only the due ones: a worker update
  // saved just before the process died asked for a decide that was lost with the process, and
  // this catches it up; each decide then re-arms its own timer.
  for (const { workflowId } of await stores.executions.dueWakeups(Number.MAX_SAFE_INTEGER, 100_000)) {
    await decisions.request(workflowId);
  }
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
