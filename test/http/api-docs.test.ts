/**
 * The API document: every route the server serves is documented (and nothing else), the document
 * validates against the official OpenAPI 3.1 schema, its models describe real answers, and Swagger
 * UI is served from the bundled package at /swagger-ui/index.html, showing /api-docs.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { createRouter } from '../../lib/runtime/router.ts';
import { workflowDef } from '../helpers/fixtures.ts';
import { errorBody, jsonRequest, useTestServer } from '../helpers/server.ts';

interface OpenApi {
  openapi: string;
  paths: Record<string, Record<string, { security?: unknown[]; responses: Record<string, unknown> }>>;
  components: { schemas: Record<string, unknown>; securitySchemes?: Record<string, unknown> };
  security?: unknown[];
}

// Every gate on, so gated routes are documented too.
const ALL_GATES = {
  'service.scheduler.enabled': true,
  'service.file-storage.enabled': true,
  'service.workflow-message-queue.enabled': true,
};

const server = useTestServer(ALL_GATES);
/**
 * Validating the document keeps the test process busy for seconds, past the server's keep-alive
 * timeout: a request on the idle pooled connection could meet its close (ECONNRESET), so these
 * requests do not keep the connection.
 */
const get = (path: string) => server.fetch(`${server.url}${path}`, { headers: { connection: 'close' } });
const document = async () => {
  const response = await get('/api-docs');
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return (await response.json()) as OpenApi;
};

describe('GET /api-docs', () => {
  it('validates against the OpenAPI 3.1 schema', async () => {
    const validator = new Validator();
    const result = await validator.validate((await document()) as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('is checked by a validator that refuses a broken document', async () => {
    const broken = { ...(await document()), paths: { '/x': { get: { responses: 'none' } } } };
    expect((await new Validator().validate(broken as never)).valid).toBe(false);
  });

  it('documents every route the server serves, and only those', async () => {
    const served = createRouter(server.server.services)
      .routes()
      .map((r) => `${r.method} ${r.path}`)
      .sort();
    const doc = await document();
    const documented = Object.entries(doc.paths)
      .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    expect(served.length).toBeGreaterThan(80);
    expect(documented).toEqual(served);
  });

  it('describes every failure with the error body, and the main models', async () => {
    const doc = await document();
    for (const item of Object.values(doc.paths)) {
      for (const op of Object.values(item)) {
        expect(op.responses['4XX']).toEqual({
          description: 'The error body',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
        });
      }
    }
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['ErrorBody', 'WorkflowDef', 'TaskDef', 'Workflow', 'Task', 'TaskResult']),
    );
    expect(doc.paths['/api/workflow/{workflowId}']?.get?.responses['2XX']).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Workflow' } } },
    });
    expect(doc.security).toBeUndefined();
  });

  it('has models that real answers satisfy', async () => {
    const doc = await document();
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema({ $id: 'doc', components: doc.components });
    const check = (model: string, value: unknown) => {
      const valid = ajv.validate({ $ref: `doc#/components/schemas/${model}` }, value);
      expect(ajv.errors ?? [], model).toEqual([]);
      expect(valid).toBe(true);
    };
    const def = workflowDef();
    await server.fetch(`${server.url}/api/metadata/workflow`, jsonRequest('POST', def));
    check('WorkflowDef', await (await get(`/api/metadata/workflow/${def.name}`)).json());
    const id = await (
      await server.fetch(
        `${server.url}/api/workflow`,
        jsonRequest('POST', { name: def.name, input: { a: 1 } }),
      )
    ).text();
    check('Workflow', await (await get(`/api/workflow/${id}`)).json());
    const polled = await get('/api/tasks/poll/batch/first_task?count=1');
    check('Task', ((await polled.json()) as unknown[])[0]);
    check('ErrorBody', await (await get('/api/workflow/nope')).json());
  });
});

describe('Swagger UI', () => {
  const dist = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

  it('serves index.html, which loads the bundled scripts and the service document', async () => {
    const page = await server.fetch(`${server.url}/swagger-ui/index.html`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('./swagger-ui-bundle.js');
    // Nothing from a CDN: every script and stylesheet is served from here.
    expect(html).not.toMatch(/<(script|link)[^>]+(src|href)="(https?:)?\/\//);
    const init = await (await server.fetch(`${server.url}/swagger-ui/swagger-initializer.js`)).text();
    expect(init).toContain("'../api-docs'");
    expect(init).not.toContain('petstore');
  });

  it('serves the package files as they are', async () => {
    for (const [file, type] of [
      ['swagger-ui-bundle.js', /^text\/javascript/],
      ['swagger-ui.css', /^text\/css/],
      ['favicon-32x32.png', /^image\/png/],
    ] as const) {
      const response = await server.fetch(`${server.url}/swagger-ui/${file}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(type);
      expect(Buffer.from(await response.arrayBuffer()).equals(readFileSync(join(dist, file)))).toBe(true);
    }
  });

  it('answers any other name 404 with the error body', async () => {
    for (const name of [
      'package.json',
      '..%2Fpackage.json',
      'swagger-ui.js.map',
      'constructor',
      'x'.repeat(5000),
    ]) {
      await errorBody(await server.fetch(`${server.url}/swagger-ui/${name}`), 404);
    }
  });
});

describe('with security on', () => {
  const secured = useTestServer({
    'service.security.enabled': true,
    'service.security.keys[0].id': 'docs',
    'service.security.keys[0].secret': 'docs-secret-0123456789',
  });

  it('stays open, and says which routes need the token', async () => {
    const response = await secured.fetch(`${secured.url}/api-docs`);
    expect(response.status).toBe(200);
    const doc = (await response.json()) as OpenApi;
    expect(doc.components.securitySchemes).toEqual({
      token: { type: 'apiKey', in: 'header', name: 'X-Authorization' },
    });
    expect(doc.security).toEqual([{ token: [] }]);
    for (const path of ['/api/token', '/api/health', '/health', '/api-docs', '/swagger-ui/{file}']) {
      const op = Object.values(doc.paths[path] ?? {})[0];
      expect(op?.security, path).toEqual([]);
    }
    expect(doc.paths['/api/metadata/workflow']?.get?.security).toBeUndefined();
    expect(doc.paths['/api/metadata/workflow']?.get?.responses['401']).toBeDefined();
    expect((await secured.fetch(`${secured.url}/swagger-ui/index.html`)).status).toBe(200);
    expect((await new Validator().validate(doc as never)).valid).toBe(true);
  });
});
