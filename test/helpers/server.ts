/**
 * A real local server for HTTP tests, reached over one of two transports: `node` sends requests
 * over loopback to the node:http adapter, `lambda` runs them in-process through the API Gateway
 * Lambda adapter (test/helpers/api-gateway.ts) in front of the same services. Memory store unless
 * the caller asks otherwise; logs are silenced so test output stays readable.
 *
 * Which transport a suite runs over is chosen by its vitest project (vitest.config.ts): every HTTP
 * suite runs in the `node` project, and those not tied to node:http run again in `lambda`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, inject } from 'vitest';
import { configOf } from '../../lib/config/load.ts';
import { lambdaHttpHandler } from '../../lib/http/lambda-adapter.ts';
import { type Logger, silentLogger } from '../../lib/log/logger.ts';
import type { Clock } from '../../lib/model/clock.ts';
import { type LocalServer, startLocalServer } from '../../lib/runtime/local.ts';
import { createRouter } from '../../lib/runtime/router.ts';
import { API_GATEWAY_HOST, lambdaFetch } from './api-gateway.ts';

export type Transport = 'node' | 'lambda';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The transport of the HTTP suites in this vitest project. */
    transport: Transport;
    /** The store of the servers useTestServer starts in this project (memory unless set). */
    store?: 'memory' | 'embedded';
  }
}

/** Where a test client sends its requests: absolute URLs under `url`, sent with `fetch`. */
export interface Endpoint {
  readonly url: string;
  fetch(input: string, init?: RequestInit): Promise<Response>;
}

export interface TestServer extends Endpoint {
  readonly transport: Transport;
  readonly server: LocalServer;
  close(): Promise<void>;
}

export interface TestServerOptions {
  clock?: Clock;
  /** Defaults to `node` here, and to the vitest project's transport in useTestServer. */
  transport?: Transport;
  /** Where the server (and the Lambda adapter) logs; silent by default. */
  logger?: Logger;
  /**
   * The store when `overrides` names none: memory (default), or the embedded store on a temporary
   * data directory removed when the server closes.
   */
  store?: 'memory' | 'embedded';
}

export async function startTestServer(
  overrides: Record<string, string | number | boolean> = {},
  options: TestServerOptions = {},
): Promise<TestServer> {
  // No UI unless a suite asks for it (test/ui/browser.ts): API suites see only the API.
  const dataDir = options.store === 'embedded' ? mkdtempSync(join(tmpdir(), 'test-server-')) : undefined;
  const config = configOf({
    'service.store': options.store ?? 'memory',
    ...(dataDir ? { 'service.local.data-dir': dataDir } : {}),
    'service.server.port': 0,
    'service.ui.dir': '',
    ...overrides,
  });
  const logger = options.logger ?? silentLogger;
  const server = await startLocalServer(config, { logger, clock: options.clock });
  const close = async () => {
    await server.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  if (options.transport !== 'lambda') {
    return { transport: 'node', url: server.url, server, close, fetch: (input, init) => fetch(input, init) };
  }
  // The local host's composition (stores, decision queue, scripts) with the Lambda adapter as the
  // HTTP edge instead of node:http (whose listener stays idle), configured as lib/runtime/aws.ts
  // configures it.
  const router = createRouter(server.services);
  const handler = lambdaHttpHandler(async () => ({
    router,
    logger,
    instance: config.requireString('service.instance-id'),
    maxBodyBytes: config.number('service.server.max-body-bytes'),
  }));
  return {
    transport: 'lambda',
    url: `https://${API_GATEWAY_HOST}`,
    server,
    close,
    fetch: lambdaFetch(handler),
  };
}

/**
 * Starts a server before the tests of the enclosing file or describe block and closes it after
 * them. The handle is usable at once; its parts are read when tests run.
 */
export function useTestServer(
  overrides: Record<string, string | number | boolean> = {},
  options: TestServerOptions = {},
): TestServer {
  const transport = options.transport ?? inject('transport') ?? 'node';
  const store = options.store ?? inject('store') ?? 'memory';
  let started: TestServer | undefined;
  beforeAll(async () => {
    started = await startTestServer(overrides, { ...options, transport, store });
  });
  afterAll(async () => {
    await started?.close();
  });
  const current = (): TestServer => {
    if (!started) throw new Error('The test server starts in beforeAll: use it inside tests and hooks');
    return started;
  };
  return {
    transport,
    get url() {
      return current().url;
    },
    get server() {
      return current().server;
    },
    fetch: (input, init) => current().fetch(input, init),
    close: () => current().close(),
  };
}

/** A JSON request with the right content type; `body` may be a raw string to send as is. */
export function jsonRequest(method: string, body?: unknown): RequestInit {
  return {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  };
}

/** The error body every failed request carries (docs/conductor-compat.md §0.2). */
export interface ErrorBodyShape {
  status: number;
  message: string;
  instance: string;
  retryable: boolean;
  validationErrors?: { path: string; message: string; invalidValue?: unknown }[];
}

/** Reads an error response, checking the parts every error body shares, and returns it for more checks. */
export async function errorBody(response: Response, status: number): Promise<ErrorBodyShape> {
  const text = await response.text();
  if (response.status !== status) {
    throw new Error(`Expected HTTP ${status}, got ${response.status}: ${text}`);
  }
  if (!response.headers.get('content-type')?.startsWith('application/json')) {
    throw new Error(`Error response has content-type ${response.headers.get('content-type')}`);
  }
  const body = JSON.parse(text) as ErrorBodyShape;
  if (body.status !== status) throw new Error(`Error body status ${body.status} differs from HTTP ${status}`);
  if (typeof body.message !== 'string' || body.message === '') throw new Error('Error body has no message');
  if (typeof body.instance !== 'string' || body.instance === '')
    throw new Error('Error body has no instance');
  if (typeof body.retryable !== 'boolean') throw new Error('Error body has no retryable flag');
  return body;
}

/** The validation paths of an error body, for `toContain` checks. */
export function pathsOf(body: ErrorBodyShape): string[] {
  return (body.validationErrors ?? []).map((e) => e.path);
}
