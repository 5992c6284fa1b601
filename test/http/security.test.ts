import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../lib/model/clock.ts';
import { errorBody, jsonRequest, useTestServer } from '../helpers/server.ts';

const KEY = { id: 'app-1', secret: 'app-1-secret-0123456789' };
const SECURED = {
  'service.security.enabled': true,
  'service.security.keys[0].id': KEY.id,
  'service.security.keys[0].secret': KEY.secret,
};

describe('with security off (the default)', () => {
  const server = useTestServer();

  it('answers POST /api/token 404, which the SDKs read as "no auth"', async () => {
    const response = await server.fetch(
      `${server.url}/api/token`,
      jsonRequest('POST', { keyId: KEY.id, keySecret: KEY.secret }),
    );
    await errorBody(response, 404);
  });

  it('serves every route without a token', async () => {
    expect((await server.fetch(`${server.url}/api/metadata/workflow`)).status).toBe(200);
  });
});

describe('with security on', () => {
  const clock = new ManualClock(Date.now());
  const server = useTestServer(SECURED, { clock });
  const token = async (body: unknown = { keyId: KEY.id, keySecret: KEY.secret }) =>
    server.fetch(`${server.url}/api/token`, jsonRequest('POST', body));
  const issued = async () => ((await (await token()).json()) as { token: string }).token;
  const definitions = (headers: Record<string, string> = {}) =>
    server.fetch(`${server.url}/api/metadata/workflow`, { headers });

  it('issues a token for a configured key', async () => {
    const response = await token();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await response.json()) as { token: string }).toEqual({
      token: expect.stringMatching(/\S+\.\S+\.\S+/),
    });
  });

  it('answers a wrong secret or an unknown key id 401 with the error body, naming neither', async () => {
    for (const body of [
      { keyId: KEY.id, keySecret: 'wrong-secret-0123456789' },
      { keyId: 'nobody', keySecret: KEY.secret },
    ]) {
      const error = await errorBody(await token(body), 401);
      expect(error.message).toBe('Invalid key id or secret');
      expect(JSON.stringify(error)).not.toContain(body.keySecret);
    }
  });

  it('answers a token request with missing fields, wrong types or malformed JSON 400', async () => {
    for (const body of [{}, { keyId: KEY.id }, { keyId: 1, keySecret: KEY.secret }, [], '{"keyId":']) {
      await errorBody(await token(body), 400);
    }
  });

  it('answers a huge token request 400 or 413, never 500', async () => {
    const status = (await token({ keyId: KEY.id, keySecret: 'x'.repeat(7 * 1024 * 1024) })).status;
    expect([400, 413]).toContain(status);
  });

  it('refuses an API route without a token: 401 with the error body', async () => {
    const error = await errorBody(await definitions(), 401);
    expect(error.message).toMatch(/X-Authorization/);
  });

  it('refuses a forged token with INVALID_TOKEN, which makes the SDKs fetch a new one', async () => {
    const error = await errorBody(await definitions({ 'x-authorization': 'a.b.c' }), 401);
    expect(error).toMatchObject({ error: 'INVALID_TOKEN' });
  });

  it('serves an API route with the token in X-Authorization', async () => {
    expect((await definitions({ 'x-authorization': await issued() })).status).toBe(200);
  });

  it('refuses an expired token with EXPIRED_TOKEN', async () => {
    const old = await issued();
    clock.advance(3_600_000);
    const error = await errorBody(await definitions({ 'x-authorization': old }), 401);
    expect(error).toMatchObject({ error: 'EXPIRED_TOKEN' });
  });

  it('keeps health and version open', async () => {
    for (const path of ['/health', '/api/health', '/api/version']) {
      expect((await server.fetch(`${server.url}${path}`)).status).toBe(200);
    }
  });

  it('still answers an unknown route 404', async () => {
    await errorBody(await server.fetch(`${server.url}/api/nothing-here`), 404);
  });
});
