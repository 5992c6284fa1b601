/**
 * The API Gateway HTTP API adapter (payload format 2.0): hand-built events run through the same
 * router the local server uses, over in-memory stores.
 */
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { configOf } from '../../lib/config/load.ts';
import type { ScriptEvaluator } from '../../lib/engine/script/evaluator.ts';
import { lambdaHttpHandler, toRequest, toResult } from '../../lib/http/lambda-adapter.ts';
import { silentLogger } from '../../lib/log/logger.ts';
import { ManualClock } from '../../lib/model/clock.ts';
import { PayloadTooLargeError } from '../../lib/model/errors.ts';
import { LocalDecisionQueue } from '../../lib/queue/local.ts';
import { createRouter } from '../../lib/runtime/router.ts';
import { createServices } from '../../lib/runtime/services.ts';
import { createMemoryStores } from '../../lib/runtime/stores.ts';
import { apiGatewayEvent } from '../helpers/api-gateway.ts';
import { workflowDef } from '../helpers/fixtures.ts';

const MAX_BODY = 2048;

/** These tests run no scripts; an evaluator that says so if one is ever asked for. */
const unusedScripts: ScriptEvaluator = {
  evaluate: async () => {
    throw new Error('no scripts in these tests');
  },
  close: async () => {},
};

function handler() {
  const clock = new ManualClock();
  const services = createServices({
    config: configOf({ 'service.store': 'memory', 'service.instance-id': 'lambda-test' }),
    logger: silentLogger,
    clock,
    stores: createMemoryStores(),
    decisions: new LocalDecisionQueue(clock, silentLogger),
    scripts: unusedScripts,
  });
  const router = createRouter(services);
  return lambdaHttpHandler(async () => ({
    router,
    logger: silentLogger,
    instance: 'lambda-test',
    maxBodyBytes: MAX_BODY,
  }));
}

function jsonBodyOf(result: APIGatewayProxyStructuredResultV2): Record<string, unknown> {
  expect(result.isBase64Encoded).toBe(false);
  return JSON.parse(result.body ?? '') as Record<string, unknown>;
}

describe('lambdaHttpHandler', () => {
  it('registers a workflow definition with POST and reads it back with GET', async () => {
    const handle = handler();
    const def = workflowDef({ name: 'lambda flow' });
    const posted = await handle(
      apiGatewayEvent({
        method: 'POST',
        url: '/api/metadata/workflow',
        body: JSON.stringify(def),
        headers: { 'content-type': 'application/json' },
      }),
    );
    expect(posted).toMatchObject({ statusCode: 200, body: '', isBase64Encoded: false });
    expect(posted.headers?.['content-length']).toBe('0');

    const got = await handle(
      apiGatewayEvent({ method: 'GET', url: '/api/metadata/workflow/lambda%20flow?version=1' }),
    );
    expect(got.statusCode).toBe(200);
    expect(got.headers?.['content-type']).toMatch(/^application\/json/);
    expect(jsonBodyOf(got)).toMatchObject({ name: 'lambda flow', version: 1, schemaVersion: 2 });
  });

  it('decodes a base64 body', async () => {
    const handle = handler();
    const def = workflowDef({ name: 'encoded_flow' });
    const posted = await handle(
      apiGatewayEvent({
        method: 'POST',
        url: '/api/metadata/workflow',
        body: Buffer.from(JSON.stringify(def)).toString('base64'),
        base64: true,
      }),
    );
    expect(posted.statusCode).toBe(200);
    const got = await handle(apiGatewayEvent({ method: 'GET', url: '/api/metadata/workflow/encoded_flow' }));
    expect(jsonBodyOf(got).name).toBe('encoded_flow');
  });

  it('answers 413 with the error body to a body over the limit', async () => {
    const result = await handler()(
      apiGatewayEvent({ method: 'POST', url: '/api/metadata/workflow', body: 'x'.repeat(MAX_BODY + 1) }),
    );
    expect(result.statusCode).toBe(413);
    expect(jsonBodyOf(result)).toEqual({
      status: 413,
      message: `Request body of ${MAX_BODY + 1} bytes exceeds the limit of ${MAX_BODY} bytes`,
      instance: 'lambda-test',
      retryable: false,
    });
  });

  it('counts the decoded size of a base64 body against the limit', async () => {
    const body = Buffer.from('x'.repeat(MAX_BODY - 100)).toString('base64');
    expect(body.length).toBeGreaterThan(MAX_BODY);
    const result = await handler()(
      apiGatewayEvent({ method: 'POST', url: '/api/metadata/workflow', body, base64: true }),
    );
    // Under the limit once decoded, so the body reaches the route, which rejects it as JSON.
    expect(result.statusCode).toBe(400);
    expect(jsonBodyOf(result).message).toMatch(/Malformed JSON/);
  });

  it('answers the version as plain text, not base64', async () => {
    const result = await handler()(apiGatewayEvent({ method: 'GET', url: '/api/version' }));
    expect(result.statusCode).toBe(200);
    expect(result.headers?.['content-type']).toMatch(/^text\/plain/);
    expect(result.isBase64Encoded).toBe(false);
    expect(result.body).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('answers an unknown route with 404 and the error body', async () => {
    const result = await handler()(apiGatewayEvent({ method: 'GET', url: '/api/nothing' }));
    expect(result.statusCode).toBe(404);
    expect(jsonBodyOf(result)).toMatchObject({ status: 404, instance: 'lambda-test', retryable: false });
  });

  it('passes the query string through', async () => {
    const result = await handler()(
      apiGatewayEvent({ method: 'GET', url: '/api/metadata/workflow/x?version=abc' }),
    );
    expect(result.statusCode).toBe(400);
    expect(jsonBodyOf(result).message).toMatch(/'version' must be an integer/);
  });
});

describe('toRequest', () => {
  it('builds a web Request with method, path, query, headers and cookies', async () => {
    const request = toRequest(
      {
        ...apiGatewayEvent({
          method: 'PUT',
          url: '/api/a%20b?x=1&y=2',
          body: '{"a":1}',
          headers: { 'x-trace': 't' },
        }),
        cookies: ['a=1', 'b=2'],
      },
      MAX_BODY,
    );
    const url = new URL(request.url);
    expect(request.method).toBe('PUT');
    expect(url.pathname).toBe('/api/a%20b');
    expect(url.searchParams.get('y')).toBe('2');
    expect(request.headers.get('x-trace')).toBe('t');
    expect(request.headers.get('cookie')).toBe('a=1; b=2');
    expect(await request.text()).toBe('{"a":1}');
  });

  it('ignores a body on GET', async () => {
    const request = toRequest(
      apiGatewayEvent({ method: 'GET', url: '/api/version', body: 'ignored' }),
      MAX_BODY,
    );
    expect(await request.text()).toBe('');
  });

  it('throws PayloadTooLargeError over the limit', () => {
    expect(() =>
      toRequest(apiGatewayEvent({ method: 'POST', url: '/x', body: 'x'.repeat(MAX_BODY + 1) }), MAX_BODY),
    ).toThrow(PayloadTooLargeError);
  });
});

describe('toResult', () => {
  it('keeps JSON and text bodies as text', async () => {
    const result = await toResult(
      new Response('{"a":1}', { status: 201, headers: { 'content-type': 'application/json' } }),
    );
    expect(result).toEqual({
      statusCode: 201,
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
      isBase64Encoded: false,
    });
  });

  it('base64-encodes binary bodies', async () => {
    const bytes = new Uint8Array([0, 255, 1, 254]);
    const result = await toResult(
      new Response(bytes, { headers: { 'content-type': 'application/octet-stream' } }),
    );
    expect(result.isBase64Encoded).toBe(true);
    expect(Buffer.from(result.body ?? '', 'base64')).toEqual(Buffer.from(bytes));
  });
});
