/**
 * The HTTP core on web Request/Response: matching (static before parameter, backtracking),
 * 404 versus 405, path decoding, and the error mapping every handler failure goes through.
 */
import { describe, expect, it } from 'vitest';
import { json } from '../../lib/http/responses.ts';
import { type RouteDef, type RouteHandler, Router } from '../../lib/http/router.ts';
import type { LogFields, Logger } from '../../lib/log/logger.ts';
import { ConflictError, NotFoundError, ValidationError } from '../../lib/model/errors.ts';

interface Logged {
  level: string;
  message: string;
  fields?: LogFields;
}

function recordingLogger(): { logger: Logger; lines: Logged[] } {
  const lines: Logged[] = [];
  const at =
    (level: string) =>
    (message: string, fields?: LogFields): void => {
      lines.push({ level, message, fields });
    };
  return { logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }, lines };
}

/** A handler that answers which route matched and with which parameters. */
const echo =
  (route: string): RouteHandler =>
  (ctx) =>
    json({ route, params: ctx.params });

function routerOf(routes: RouteDef[], logger: Logger = recordingLogger().logger): Router {
  return new Router({ logger, instance: 'router-test' }).addAll(routes);
}

async function call(router: Router, method: string, path: string, body?: string) {
  const response = await router.handle(new Request(`http://local${path}`, { method, body }));
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const names: RouteDef[] = [
  { method: 'GET', path: '/api/workflow/names', summary: 'test route', open: true, handler: echo('names') },
  { method: 'GET', path: '/api/workflow/{name}', summary: 'test route', open: true, handler: echo('byName') },
  {
    method: 'GET',
    path: '/api/workflow/{name}/versions',
    summary: 'test route',
    open: true,
    handler: echo('versions'),
  },
  {
    method: 'GET',
    path: '/api/workflow/names/special',
    summary: 'test route',
    open: true,
    handler: echo('special'),
  },
];

describe('Router matching', () => {
  it('prefers a static segment over a parameter', async () => {
    expect((await call(routerOf(names), 'GET', '/api/workflow/names')).body).toEqual({
      route: 'names',
      params: {},
    });
  });

  it('falls back to a parameter for any other segment', async () => {
    expect((await call(routerOf(names), 'GET', '/api/workflow/orders')).body).toEqual({
      route: 'byName',
      params: { name: 'orders' },
    });
  });

  it('backtracks to the parameter branch when the static branch dead-ends', async () => {
    // `names` matches the static node, which has no `versions` child: the `{name}` branch must be tried.
    expect((await call(routerOf(names), 'GET', '/api/workflow/names/versions')).body).toEqual({
      route: 'versions',
      params: { name: 'names' },
    });
  });

  it('backtracks to the parameter branch when the static branch lacks the method', async () => {
    const router = routerOf([
      {
        method: 'POST',
        path: '/api/workflow/validate',
        summary: 'test route',
        open: true,
        handler: echo('validate'),
      },
      {
        method: 'GET',
        path: '/api/workflow/{name}',
        summary: 'test route',
        open: true,
        handler: echo('byName'),
      },
    ]);
    expect((await call(router, 'GET', '/api/workflow/validate')).body).toEqual({
      route: 'byName',
      params: { name: 'validate' },
    });
    expect((await call(router, 'POST', '/api/workflow/validate')).body.route).toBe('validate');
  });

  it('names parameters per method when routes share a position', async () => {
    const router = routerOf([
      { method: 'GET', path: '/api/items/{id}', summary: 'test route', open: true, handler: echo('get') },
      {
        method: 'DELETE',
        path: '/api/items/{name}',
        summary: 'test route',
        open: true,
        handler: echo('delete'),
      },
    ]);
    expect((await call(router, 'GET', '/api/items/42')).body.params).toEqual({ id: '42' });
    expect((await call(router, 'DELETE', '/api/items/42')).body.params).toEqual({ name: '42' });
  });

  it('URL-decodes parameters, including an encoded slash', async () => {
    const { body } = await call(routerOf(names), 'GET', `/api/workflow/${encodeURIComponent('a b/c%d')}`);
    expect(body).toEqual({ route: 'byName', params: { name: 'a b/c%d' } });
  });

  it('tolerates a trailing slash', async () => {
    expect((await call(routerOf(names), 'GET', '/api/workflow/names/')).body.route).toBe('names');
  });

  it('refuses to register the same method and path twice', () => {
    const router = routerOf(names);
    expect(() =>
      router.add({
        method: 'GET',
        path: '/api/workflow/{other}',
        summary: 'test route',
        open: true,
        handler: echo('x'),
      }),
    ).toThrow('Duplicate route GET /api/workflow/{other}');
  });
});

describe('Router.claims: the paths the router answers, for what serves beside it', () => {
  const router = routerOf([
    ...names,
    { method: 'GET', path: '/health', summary: 'test route', open: true, handler: echo('health') },
    { method: 'GET', path: '/swagger-ui/{file}', summary: 'test route', open: true, handler: echo('file') },
    { method: 'POST', path: '/api-docs', summary: 'test route', open: true, handler: echo('doc') },
  ]);

  it('claims every path a route template matches, whatever the method, and every path under a route', () => {
    for (const path of [
      '/health',
      '/swagger-ui/index.html',
      '/api-docs',
      '/api-docs/swagger-config',
      '/api/workflow/x/versions',
      '/api/anything/at/all',
      '/swagger-ui',
    ]) {
      expect(router.claims(path), path).toBe(true);
    }
  });

  it('leaves every other path to the host', () => {
    for (const path of ['/', '/workflowDefs', '/executions/id', '/assets/index.js', '/healthz', '/apis']) {
      expect(router.claims(path), path).toBe(false);
    }
  });
});

describe('Router answers without a handler', () => {
  it('answers 404 with the error body for an unknown path', async () => {
    const { status, body } = await call(routerOf(names), 'GET', '/api/nothing');
    expect(status).toBe(404);
    expect(body).toEqual({
      status: 404,
      message: 'No route for GET /api/nothing',
      instance: 'router-test',
      retryable: false,
    });
  });

  it('answers 404 for a path longer than any route', async () => {
    expect((await call(routerOf(names), 'GET', '/api/workflow/a/versions/extra')).status).toBe(404);
  });

  it('answers 405 when the path exists under another method only', async () => {
    const { status, body } = await call(routerOf(names), 'DELETE', '/api/workflow/orders');
    expect(status).toBe(405);
    expect(body).toMatchObject({
      status: 405,
      message: 'Method DELETE is not supported on /api/workflow/orders',
    });
  });

  it('answers 400 to malformed percent-encoding', async () => {
    const { status, body } = await call(routerOf(names), 'GET', '/api/workflow/%E0%A4%A');
    expect(status).toBe(400);
    expect(body).toMatchObject({ status: 400, retryable: false });
    expect(body.message).toMatch(/Malformed percent-encoding in path segment/);
  });
});

describe('Router error mapping', () => {
  const throwing = (error: unknown): RouteDef[] => [
    {
      method: 'POST',
      path: '/fail',
      summary: 'test route',
      open: true,
      handler: () => {
        throw error;
      },
    },
  ];

  it.each([
    [new NotFoundError('No such thing'), 404],
    [new ConflictError('Already there'), 409],
    [new ValidationError('Bad input'), 400],
  ])('maps a handler throwing %s to its status with the message', async (error, status) => {
    const { status: got, body } = await call(routerOf(throwing(error)), 'POST', '/fail');
    expect(got).toBe(status);
    expect(body).toEqual({ status, message: error.message, instance: 'router-test', retryable: false });
  });

  it('includes validationErrors only when a validation carries them', async () => {
    const error = new ValidationError('Invalid', [{ path: 'a.b', message: 'must be set' }]);
    const { body } = await call(routerOf(throwing(error)), 'POST', '/fail');
    expect(body.validationErrors).toEqual([{ path: 'a.b', message: 'must be set' }]);
  });

  it('answers a plain Error with 500 and a generic message that leaks no internals', async () => {
    const { logger, lines } = recordingLogger();
    const secret = new Error('connection string postgres://user:pw@db');
    const response = await routerOf(throwing(secret), logger).handle(
      new Request('http://local/fail', { method: 'POST' }),
    );
    const text = await response.text();
    expect(response.status).toBe(500);
    expect(JSON.parse(text)).toEqual({
      status: 500,
      message: 'Internal server error',
      instance: 'router-test',
      retryable: false,
    });
    expect(text).not.toContain('postgres');
    expect(text).not.toContain('stack');
    expect(lines.map((l) => l.level)).toEqual(['error']);
  });

  it('logs rejected requests as warnings', async () => {
    const { logger, lines } = recordingLogger();
    await routerOf(throwing(new NotFoundError('gone')), logger).handle(
      new Request('http://local/fail', { method: 'POST' }),
    );
    expect(lines).toEqual([expect.objectContaining({ level: 'warn' })]);
  });

  it('answers malformed JSON bodies with 400 when the handler reads them', async () => {
    const router = routerOf([
      {
        method: 'POST',
        path: '/echo',
        summary: 'test route',
        open: true,
        handler: async (ctx) => json(await ctx.json()),
      },
    ]);
    const { status, body } = await call(router, 'POST', '/echo', '{oops');
    expect(status).toBe(400);
    expect(body.message).toMatch(/^Malformed JSON in request body/);
    expect((await call(router, 'POST', '/echo', '{"a":1}')).body).toEqual({ a: 1 });
  });
});
