/**
 * A real local server on a free loopback port, for HTTP tests that go over the wire with fetch.
 * Memory store unless the caller asks otherwise; logs are silenced so test output stays readable.
 */
import { configOf } from '../../lib/config/load.ts';
import { silentLogger } from '../../lib/log/logger.ts';
import type { Clock } from '../../lib/model/clock.ts';
import { type LocalServer, startLocalServer } from '../../lib/runtime/local.ts';

export interface TestServer {
  url: string;
  server: LocalServer;
  close(): Promise<void>;
}

export async function startTestServer(
  overrides: Record<string, string | number | boolean> = {},
  options: { clock?: Clock } = {},
): Promise<TestServer> {
  const server = await startLocalServer(
    configOf({ 'service.store': 'memory', 'service.server.port': 0, ...overrides }),
    { logger: silentLogger, clock: options.clock },
  );
  return { url: server.url, server, close: () => server.close() };
}

/** A JSON request with the right content type; `body` may be a raw string to send as is. */
export function jsonRequest(method: string, body?: unknown): RequestInit {
  return {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  };
}

/** The error body every failed request carries (reference/conductor.md §0.2). */
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
