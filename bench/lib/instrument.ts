/**
 * An in-process local server over metered memory stores. The engine's entry points (start, decide,
 * poll, update) and its decision queue are wrapped on the live instances so every store operation
 * is attributed to the phase that caused it and every decision-queue message is counted. Only the
 * benchmark does this; the server itself is the ordinary one.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalDecisionQueue } from '../../lib/queue/local.ts';
import type { LocalServer } from '../../lib/runtime/local.ts';
import { ensureTables, type ServiceStores, tableNamesFrom } from '../../lib/runtime/store-bundle.ts';
import { createDynamoStores, createEmbeddedStores, createMemoryStores } from '../../lib/runtime/stores.ts';
import { startEmbeddedDynamo } from '../../lib/store/dynamodb/embedded.ts';
import { dynamoSession } from '../../lib/store/dynamodb/index.ts';
import { EmbeddedDb } from '../../lib/store/embedded/database.ts';
import { startInProcessServer } from './in-process.ts';
import { meteredStores } from './metered-stores.ts';
import { StoreMeter } from './store-meter.ts';

export interface MeteredServer {
  server: LocalServer;
  meter: StoreMeter;
  /** The stores under the meter, for reading state without counting it. */
  raw: ServiceStores;
  /** Resolves when no decide is running or pending. */
  idle(): Promise<void>;
  /** Closes the server, then the embedded DynamoDB if there is one. */
  close(): Promise<void>;
}

export interface MeteredServerOptions {
  sizes?: boolean;
  /**
   * The stores: in memory (default), the embedded store (the local server's default) in a
   * temporary directory, or DynamoDB adapters over an in-process, in-memory dynalite.
   */
  store?: 'memory' | 'dynamodb' | 'embedded';
}

export async function startMeteredServer(options: MeteredServerOptions = {}): Promise<MeteredServer> {
  const meter = new StoreMeter(options);
  const dynamo = options.store === 'dynamodb' ? await startEmbeddedDynamo() : undefined;
  let raw: ServiceStores;
  if (dynamo) {
    const tables = tableNamesFrom('bench-');
    await ensureTables(dynamoSession(dynamo.client()), tables);
    raw = createDynamoStores(dynamoSession(dynamo.client()), tables);
  } else if (options.store === 'embedded') {
    const dir = mkdtempSync(join(tmpdir(), 'bench-metered-'));
    const embedded = createEmbeddedStores(await EmbeddedDb.open(dir));
    raw = {
      ...embedded,
      close: async () => {
        await embedded.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } else {
    raw = createMemoryStores();
  }
  const server = await startInProcessServer(meteredStores(meter, raw));
  const { engine, decisions, clock } = server.services;

  const start = engine.starter.start.bind(engine.starter);
  engine.starter.start = (request) => meter.inPhase('start', () => start(request));
  const decide = engine.executor.decide.bind(engine.executor);
  engine.executor.decide = (workflowId, taskIds) =>
    meter.inPhase('decide', () => {
      meter.countDecide();
      return decide(workflowId, taskIds);
    });
  const poll = engine.tasks.poll.bind(engine.tasks);
  engine.tasks.poll = (taskType, pollOptions) => meter.inPhase('poll', () => poll(taskType, pollOptions));
  const update = engine.tasks.update.bind(engine.tasks);
  engine.tasks.update = (result) => meter.inPhase('update', () => update(result));

  const request = decisions.request.bind(decisions);
  decisions.request = (workflowId, delayMs) => {
    meter.countRequest(delayMs);
    return request(workflowId, delayMs);
  };
  const requestForTasks = decisions.requestForTasks.bind(decisions);
  decisions.requestForTasks = (workflowId, taskIds) => {
    meter.countRequest(0);
    return requestForTasks(workflowId, taskIds);
  };
  const wakeAt = decisions.wakeAt.bind(decisions);
  decisions.wakeAt = (workflowId, at, keptSince) => {
    meter.countWakeAt(at, clock.now(), keptSince);
    return wakeAt(workflowId, at, keptSince);
  };

  if (!(decisions instanceof LocalDecisionQueue)) throw new Error('expected the local decision queue');
  return {
    server,
    meter,
    raw,
    idle: () => decisions.idle(),
    async close() {
      await server.close();
      await dynamo?.close();
    },
  };
}
