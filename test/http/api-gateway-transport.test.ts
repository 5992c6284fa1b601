/**
 * The test-side API Gateway emulation that the `lambda` project runs the HTTP suites through
 * (test/helpers/api-gateway.ts): requests become payload-2.0 events the way API Gateway builds them,
 * and results become the responses a client would receive.
 */
import { describe, expect, it } from 'vitest';
import { fromApiGatewayResult, toApiGatewayEvent } from '../helpers/api-gateway.ts';

describe('toApiGatewayEvent', () => {
  it('hands over the path URL-decoded and the query string as sent, as HTTP APIs do', async () => {
    const event = await toApiGatewayEvent(new Request('https://api.test/api/a%20b/c%2Fd?x=%20y&z=1'));
    expect(event.rawPath).toBe('/api/a b/c/d');
    expect(event.rawQueryString).toBe('x=%20y&z=1');
    expect(event.requestContext.http.method).toBe('GET');
    expect(event.body).toBeUndefined();
  });

  it('keeps a path that does not decode as sent', async () => {
    const event = await toApiGatewayEvent(new Request('https://api.test/api/bad%E0%A4'));
    expect(event.rawPath).toBe('/api/bad%E0%A4');
  });

  it('passes a JSON body as text and a binary body base64-encoded', async () => {
    const json = await toApiGatewayEvent(
      new Request('https://api.test/x', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"a":1}',
      }),
    );
    expect(json).toMatchObject({ body: '{"a":1}', isBase64Encoded: false });
    expect(json.headers['content-type']).toBe('application/json');
    const binary = await toApiGatewayEvent(
      new Request('https://api.test/x', {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream' },
        body: new Uint8Array([0, 255]),
      }),
    );
    expect(binary).toMatchObject({ body: Buffer.from([0, 255]).toString('base64'), isBase64Encoded: true });
  });
});

describe('fromApiGatewayResult', () => {
  it('answers with the status, headers and body, adding the length API Gateway sends', async () => {
    const response = fromApiGatewayResult({
      statusCode: 201,
      headers: { 'content-type': 'application/json' },
      body: '{"é":1}',
      isBase64Encoded: false,
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength('{"é":1}')));
    expect(await response.json()).toEqual({ é: 1 });
  });

  it('decodes a base64 body and answers 204 with no body', async () => {
    const bytes = fromApiGatewayResult({ statusCode: 200, body: 'AP8=', isBase64Encoded: true });
    expect(new Uint8Array(await bytes.arrayBuffer())).toEqual(new Uint8Array([0, 255]));
    const empty = fromApiGatewayResult({ statusCode: 204, body: '' });
    expect(empty.status).toBe(204);
    expect(await empty.text()).toBe('');
  });
});
