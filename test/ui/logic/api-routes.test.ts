// The UI's API client names real routes: every `METHOD path` in ui/src/api/routes.ts is one the
// server registers, so renaming a route on the server fails here rather than in a page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRouter } from '../../../lib/runtime/router.ts';
import { ApiError, describeError, errorOf, urlOf } from '../../../ui/src/api/client.ts';
import { API_ROUTES } from '../../../ui/src/api/routes.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

describe('the UI API client', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('calls only routes the server registers', () => {
    const registered = new Set(
      createRouter(server.server.services)
        .routes()
        .map((r) => `${r.method} ${r.path}`),
    );
    const unknown = API_ROUTES.filter((key) => !registered.has(key));
    expect(unknown).toEqual([]);
  });

  it('fills path parameters encoded and leaves out empty query values', () => {
    expect(urlOf('GET /api/schema/{name}/{version}', { name: 'a b/c', version: 2 })).toBe(
      '/api/schema/a%20b%2Fc/2',
    );
    expect(urlOf('GET /api/schema', {}, { short: undefined })).toBe('/api/schema');
    expect(urlOf('POST /api/schema', {}, { newVersion: true })).toBe('/api/schema?newVersion=true');
    expect(() => urlOf('GET /api/schema/{name}', {})).toThrow(/name/);
  });

  it('turns an error body into its message, with the validation errors in words', () => {
    const error = errorOf(
      { status: 400, statusText: 'Bad Request' },
      JSON.stringify({
        status: 400,
        message: 'The schema definition is not valid',
        validationErrors: [{ path: 'name', message: 'Schema name cannot be null or empty' }],
      }),
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(400);
    expect(describeError(error)).toBe(
      'The schema definition is not valid (name: Schema name cannot be null or empty)',
    );
    expect(errorOf({ status: 502, statusText: 'Bad Gateway' }, '<html>').message).toBe(
      'The service answered 502 Bad Gateway',
    );
  });

  it('says a message once when the validation errors repeat it', () => {
    const query = errorOf(
      { status: 400, statusText: 'Bad Request' },
      JSON.stringify({
        message: 'Invalid query at position 9: expected a value, got end of query',
        validationErrors: [{ path: 'query', message: 'expected a value, got end of query (position 9)' }],
      }),
    );
    expect(describeError(query)).toBe('Invalid query at position 9: expected a value, got end of query');
    const cron = errorOf(
      { status: 400, statusText: 'Bad Request' },
      JSON.stringify({
        message: "Invalid cron expression: 'x' is not a valid cron expression: it needs 6 fields",
        validationErrors: [
          { path: 'cronExpression', message: "'x' is not a valid cron expression: it needs 6 fields" },
          { path: 'zoneId', message: 'unknown zone Mars/Base' },
        ],
      }),
    );
    expect(describeError(cron)).toBe(
      "Invalid cron expression: 'x' is not a valid cron expression: it needs 6 fields (zoneId: unknown zone Mars/Base)",
    );
  });
});
