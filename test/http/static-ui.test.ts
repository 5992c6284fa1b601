/**
 * The local server with the management UI built and served at `/` (as `npm start` always serves
 * it): the UI answers its own files and client-side routes, and never a path of the API. Every
 * route of the router's table, templated ones included, reaches the router; so does a path under
 * a route's first segment (`/api-docs/swagger-config`), which the router answers with its 404 error
 * body rather than the UI's page. Node only: the UI is the node host's (on AWS, CloudFront).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIST_DIR, ensureUiBuilt } from '../../ui/build.ts';
import { errorBody, startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let uiPage: string;

beforeAll(async () => {
  await ensureUiBuilt();
  uiPage = readFileSync(join(DIST_DIR, 'index.html'), 'utf8');
  server = await startTestServer({ 'service.ui.dir': DIST_DIR }, { transport: 'node' });
}, 300_000);
afterAll(() => server?.close());

const get = (path: string) => server.fetch(`${server.url}${path}`);

/** Whether the UI's static handler answered: its page, or its plain 404 for a missing file. */
const fromUi = (response: Response, body: string) =>
  body === uiPage ||
  (response.status === 404 && response.headers.get('content-type')?.startsWith('text/plain') === true);

/** A path of the route's template with each `{param}` filled in. */
const pathOf = (template: string) =>
  template.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'file' ? 'index.html' : `ui-probe-${name}`));

describe('the management UI beside the API', () => {
  it('serves its page at / and on its client-side routes', async () => {
    for (const path of ['/', '/workflowDefs', '/executions/some-id']) {
      const response = await get(path);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(uiPage);
    }
  });

  it('leaves Swagger UI to the router: /swagger-ui/index.html is its page, not the UI', async () => {
    const response = await get('/swagger-ui/index.html');
    expect(response.status).toBe(200);
    const body = await response.text();
    expect(body).not.toBe(uiPage);
    expect(body.toLowerCase()).toContain('swagger');
    expect((await get('/swagger-ui/swagger-initializer.js')).status).toBe(200);
    expect((await get('/api-docs')).headers.get('content-type')).toContain('application/json');
  });

  it('answers a path under a route with the API error body, not the UI page', async () => {
    for (const path of [
      '/api-docs/swagger-config',
      '/swagger-ui/',
      '/swagger-ui/no-such-file',
      '/health/x',
    ]) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      await errorBody(response, 404);
    }
  });

  it('never answers a route of the route table, whatever its method, from the UI', async () => {
    const routes = server.server.services.routes();
    expect(routes.length).toBeGreaterThan(50);
    const shadowed: string[] = [];
    for (const route of routes) {
      const path = pathOf(route.path);
      const response = await get(path);
      const body = await response.text();
      if (fromUi(response, body)) shadowed.push(`${route.method} ${route.path} (GET ${path})`);
    }
    expect(shadowed).toEqual([]);
  });
});
