/**
 * The request body limit of the node:http adapter (service.server.max-body-bytes), checked while
 * the body is read from the socket, so a chunked body without a declared length is cut off too.
 * Node only: API Gateway buffers the whole body before the Lambda adapter sees it, and that
 * adapter's limit is covered in lambda-adapter.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { workflowDef } from '../helpers/fixtures.ts';
import { errorBody, jsonRequest, useTestServer } from '../helpers/server.ts';
import { expectEmptyOk } from './execution-api.ts';

describe('the request body limit', () => {
  const small = useTestServer({ 'service.server.max-body-bytes': 2048 }, { transport: 'node' });

  it('answers 413 with the error body to a body over service.server.max-body-bytes', async () => {
    const def = workflowDef({ description: 'x'.repeat(4096) });
    const response = await fetch(`${small.url}/api/metadata/workflow`, jsonRequest('POST', def));
    const body = await errorBody(response, 413);
    expect(body.message).toMatch(/exceeds the limit of 2048 bytes/);
    expect(body.retryable).toBe(false);
  });

  it('answers 413 to a chunked body without a declared length that grows past the limit', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(1000));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 5; i++) controller.enqueue(chunk);
        controller.close();
      },
    });
    const response = await fetch(`${small.url}/api/metadata/workflow`, {
      method: 'POST',
      body: stream,
      duplex: 'half',
    } as RequestInit);
    const body = await errorBody(response, 413);
    expect(body.message).toBe('Request body exceeds the limit of 2048 bytes');
  });

  it('accepts a body under the limit', async () => {
    await expectEmptyOk(
      await fetch(`${small.url}/api/metadata/workflow`, jsonRequest('POST', workflowDef())),
    );
  });
});
