/**
 * System routes over both transports (health, version), the routes the official SDK probes, and the
 * feature gates: a gated-off group has no routes, so its paths answer 404 with the error body.
 */

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Router } from '../../lib/http/router.ts';
import { silentLogger } from '../../lib/log/logger.ts';
import { SERVICE_VERSION } from '../../lib/runtime/version.ts';
import { OPEN_API } from '../../lib/security/api-auth.ts';
import { systemRoutes } from '../../lib/system/routes.ts';
import { errorBody, useTestServer } from '../helpers/server.ts';

const packageVersion = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

const server = useTestServer();

describe('health', () => {
  it.each(['/health', '/api/health'])('GET %s answers {healthy: true} as JSON', async (path) => {
    const response = await server.fetch(`${server.url}${path}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toMatchObject({ healthy: true });
  });
});

describe('GET /api/version', () => {
  it('answers the package.json version as plain text, not quoted JSON', async () => {
    const response = await server.fetch(`${server.url}/api/version`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await response.text()).toBe(packageVersion);
  });

  it('keeps the compiled-in version in step with package.json', () => {
    expect(SERVICE_VERSION).toBe(packageVersion);
  });
});

describe('routes the official SDK probes', () => {
  it('answers POST /api/token with 404, which the SDK reads as "no authentication needed"', async () => {
    const response = await server.fetch(`${server.url}/api/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ keyId: 'k', keySecret: 's' }),
    });
    const body = await errorBody(response, 404);
    expect(body.message).toBe('No route for POST /api/token');
    expect(body.retryable).toBe(false);
  });

  it('answers an unknown path outside /api with 404 and the error body', async () => {
    await errorBody(await server.fetch(`${server.url}/nothing-here`), 404);
  });

  it('answers POST on the version route with 405', async () => {
    const body = await errorBody(await server.fetch(`${server.url}/api/version`, { method: 'POST' }), 405);
    expect(body.message).toBe('Method POST is not supported on /api/version');
  });
});

describe('feature gates', () => {
  const gatedOff = useTestServer({ 'service.scheduler.enabled': false });

  it.each(['/api/scheduler/schedules', '/api/scheduler/schedules/search?start=0&size=15'])(
    'answers GET %s with 404 and the error body when the scheduler is off',
    async (path) => {
      const body = await errorBody(await gatedOff.fetch(`${gatedOff.url}${path}`), 404);
      expect(body.message).toBe(`No route for GET ${path.split('?')[0]}`);
      expect(body.retryable).toBe(false);
    },
  );

  it('keeps the ungated routes of a gated-off server answering', async () => {
    expect((await gatedOff.fetch(`${gatedOff.url}/api/health`)).status).toBe(200);
  });
});

describe('health when the store does not answer', () => {
  it('answers 503 with {healthy: false}', async () => {
    const router = new Router({ logger: silentLogger, instance: 'test' }).addAll(
      systemRoutes({
        version: '0.0.0',
        checkHealth: async () => {
          throw new Error('store down');
        },
        auth: OPEN_API,
      }),
    );
    const response = await router.handle(new Request('http://local/api/health'));
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ healthy: false });
  });
});
