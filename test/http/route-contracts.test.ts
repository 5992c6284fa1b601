/**
 * Route contracts: the router checks path, query and body against each route's JSON Schemas
 * before the handler runs, answering with the same error bodies the hand-written checks gave; and
 * every route of every group carries a summary and schemas that compile.
 */

import { Ajv } from 'ajv';
import { describe, expect, it, vi } from 'vitest';
import { integerValue, type JsonSchema, paramsOf, pathParams, stringValue } from '../../lib/http/contract.ts';
import { json } from '../../lib/http/responses.ts';
import { type RouteDef, Router, route } from '../../lib/http/router.ts';
import { silentLogger } from '../../lib/log/logger.ts';
import { metadataRoutes } from '../../lib/metadata/routes/index.ts';
import type { MetadataService } from '../../lib/metadata/service.ts';
import { OPEN_API } from '../../lib/security/api-auth.ts';
import { systemRoutes } from '../../lib/system/routes.ts';
import { taskRoutes } from '../../lib/tasks/routes/index.ts';
import type { Engine } from '../../lib/workflows/engine-api.ts';
import { workflowRoutes } from '../../lib/workflows/routes/index.ts';

const orders = route({
  method: 'POST',
  path: '/api/orders/{orderId}/lines',
  summary: 'Add a line to an order',
  permission: 'definitions:manage',
  request: {
    params: pathParams({ orderId: { type: 'string', pattern: '^\\d+$', description: 'a positive integer' } }),
    query: paramsOf(
      {
        warehouse: stringValue('Where from'),
        count: integerValue({ minimum: 1, maximum: 10 }),
        express: { type: 'boolean' },
      },
      ['warehouse'],
    ),
    body: {
      title: 'OrderLine',
      required: true,
      schema: {
        type: 'object',
        properties: { sku: { type: 'string' }, quantity: { type: 'integer', minimum: 1 } },
        required: ['sku'],
      },
    },
  },
  handler: async (ctx) =>
    json({
      orderId: ctx.param('orderId'),
      count: ctx.query.int('count', 1),
      express: ctx.query.bool('express', false),
      body: await ctx.json(),
    }),
});

const router = () => new Router({ logger: silentLogger, instance: 'contract-test' }).add(orders);

async function post(path: string, body?: unknown) {
  const response = await router().handle(
    new Request(`http://local${path}`, {
      method: 'POST',
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('contract checks in the router', () => {
  it('hands the handler converted query values and the body', async () => {
    const { status, body } = await post('/api/orders/7/lines?warehouse=w1&count=3&express=TRUE', {
      sku: 'a',
      quantity: 2,
    });
    expect(status).toBe(200);
    expect(body).toEqual({ orderId: '7', count: 3, express: true, body: { sku: 'a', quantity: 2 } });
  });

  it('allows body fields the schema does not name', async () => {
    const { status, body } = await post('/api/orders/7/lines?warehouse=w1', { sku: 'a', note: 'gift' });
    expect(status).toBe(200);
    expect(body.body).toEqual({ sku: 'a', note: 'gift' });
  });

  it('answers a wrong type in the body with 400 listing every problem', async () => {
    const { status, body } = await post('/api/orders/7/lines?warehouse=w1', { quantity: 'two' });
    expect(status).toBe(400);
    expect(body).toEqual({
      status: 400,
      message: 'Invalid OrderLine: sku: is required; quantity: must be an integer',
      instance: 'contract-test',
      retryable: false,
      validationErrors: [
        { path: 'sku', message: 'is required' },
        { path: 'quantity', message: 'must be an integer', invalidValue: 'two' },
      ],
    });
  });

  it('answers a missing or non-object body as the shape checks always did', async () => {
    expect((await post('/api/orders/7/lines?warehouse=w1')).body.message).toBe(
      'Request body is required: OrderLine',
    );
    const { body } = await post('/api/orders/7/lines?warehouse=w1', [1]);
    expect(body.message).toBe('Request body must be a JSON object: OrderLine');
    expect(body.validationErrors).toEqual([{ path: 'body', message: 'must be a JSON object' }]);
  });

  it('answers a missing required query parameter with 400, an empty value counting as absent', async () => {
    for (const path of ['/api/orders/7/lines', '/api/orders/7/lines?warehouse=']) {
      const { status, body } = await post(path, { sku: 'a' });
      expect(status).toBe(400);
      expect(body.message).toBe('Query parameter warehouse is required');
      expect(body.validationErrors).toEqual([{ path: 'warehouse', message: 'is required' }]);
    }
  });

  it.each([
    ['count=abc', "Query parameter 'count' must be an integer, got 'abc'", 'must be an integer', 'abc'],
    ['count=1e1', "Query parameter 'count' must be an integer, got '1e1'", 'must be an integer', '1e1'],
    ['count=11', "Query parameter 'count' must be within 1..10, got 11", 'must be within 1..10', 11],
    ['express=yes', "Query parameter 'express' must be true or false, got 'yes'", 'must be a boolean', 'yes'],
  ])('answers %s with the query wording of before', async (query, message, fieldMessage, invalidValue) => {
    const { status, body } = await post(`/api/orders/7/lines?warehouse=w1&${query}`, { sku: 'a' });
    expect(status).toBe(400);
    expect(body.message).toBe(message);
    expect(body.validationErrors).toEqual([
      { path: query.split('=')[0], message: fieldMessage, invalidValue },
    ]);
  });

  it('answers a path parameter that breaks its pattern with what it must be', async () => {
    const { status, body } = await post('/api/orders/x7/lines?warehouse=w1', { sku: 'a' });
    expect(status).toBe(400);
    expect(body.message).toBe("OrderId must be a positive integer, got 'x7'");
    expect(body.validationErrors).toEqual([
      { path: 'orderId', message: 'must be a positive integer', invalidValue: 'x7' },
    ]);
  });

  it('compiles schemas when routes are added, never per request', async () => {
    const compile = vi.spyOn(Ajv.prototype, 'compile');
    try {
      const r = new Router({ logger: silentLogger, instance: 'contract-test' }).add(orders);
      const afterAdd = compile.mock.calls.length;
      expect(afterAdd).toBeGreaterThan(0);
      for (let i = 0; i < 3; i++) {
        await r.handle(
          new Request('http://local/api/orders/1/lines?warehouse=w', { method: 'POST', body: '{"sku":"a"}' }),
        );
      }
      expect(compile.mock.calls.length).toBe(afterAdd);
    } finally {
      compile.mockRestore();
    }
  });

  it("compiles a route's schemas on its first request when asked to (a Lambda), then never again", async () => {
    const compile = vi.spyOn(Ajv.prototype, 'compile');
    try {
      const r = new Router({
        logger: silentLogger,
        instance: 'contract-test',
        compileContracts: 'when-first-used',
      }).add(orders);
      expect(compile).not.toHaveBeenCalled();
      const request = (query: string) =>
        r.handle(
          new Request(`http://local/api/orders/1/lines?${query}`, { method: 'POST', body: '{"sku":"a"}' }),
        );
      expect((await request('warehouse=w')).status).toBe(200);
      const afterFirst = compile.mock.calls.length;
      expect(afterFirst).toBeGreaterThan(0);
      const refused = await request('warehouse=w&count=x');
      expect(refused.status).toBe(400);
      expect(compile.mock.calls.length).toBe(afterFirst);
    } finally {
      compile.mockRestore();
    }
  });

  it('refuses a route whose schema is not valid JSON Schema when it is added', () => {
    const broken: RouteDef = { ...orders, request: { query: paramsOf({ n: { type: 'integr' } }) } };
    expect(() => new Router({ logger: silentLogger, instance: 'contract-test' }).add(broken)).toThrow();
  });

  it('types ctx.param from the path literal', () => {
    route({
      method: 'GET',
      path: '/api/things/{thingId}',
      summary: 'Read a thing',
      open: true,
      handler: (ctx) => {
        // @ts-expect-error: the path has no {other} segment
        ctx.param('other');
        return json(ctx.param('thingId'));
      },
    });
  });
});

/** Every group's routes, built over stand-ins: building a route never calls its dependencies. */
function everyRoute(): RouteDef[] {
  const engine = {} as Engine;
  return [
    ...systemRoutes({ version: '0', checkHealth: async () => {}, auth: { ...OPEN_API, enabled: true } }),
    ...metadataRoutes({} as MetadataService),
    ...workflowRoutes(engine),
    ...taskRoutes(engine),
  ];
}

/** What the router's query conversion understands: flat strings, integers, booleans, string lists. */
function isFlatValue(schema: JsonSchema): boolean {
  if (schema.type === 'array') return (schema.items as JsonSchema | undefined)?.type === 'string';
  return ['string', 'integer', 'boolean'].includes(String(schema.type));
}

describe('every route declares its contract', () => {
  const routes = everyRoute();

  it('registers every route in one router without clashes', () => {
    expect(() => new Router({ logger: silentLogger, instance: 'all' }).addAll(routes)).not.toThrow();
  });

  it.each(routes.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s has a one-line summary',
    (_name, r) => {
      expect(r.summary.trim()).not.toBe('');
      expect(r.summary).not.toMatch(/\n/);
    },
  );

  it.each(routes.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s declares exactly its path parameters, flat query values and schemas that compile',
    (_name, r) => {
      const ajv = new Ajv({ allErrors: true, strict: true });
      const inPath = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      expect(Object.keys(r.request?.params?.properties ?? {})).toEqual(inPath);
      for (const property of Object.values(r.request?.query?.properties ?? {})) {
        expect(isFlatValue(property)).toBe(true);
      }
      for (const schema of [r.request?.params, r.request?.query, r.request?.body?.schema]) {
        if (schema) expect(() => ajv.compile(schema)).not.toThrow();
      }
      if (r.request?.body) expect(r.request.body.title).not.toBe('');
    },
  );
});
