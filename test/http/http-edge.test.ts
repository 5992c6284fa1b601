/**
 * Clean answers before routing (issue 8): oversized headers (431), oversized request targets
 * (414), bytes and percent-encoding that do not decode (400), unknown methods (405) carry the JSON
 * error body and a Content-Type, from node:http (raw sockets, so node's own parser is reached) and
 * from the Lambda adapter (hand-built API Gateway events). Node only: it addresses both itself.
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { lambdaHttpHandler } from '../../lib/http/lambda-adapter.ts';
import { silentLogger } from '../../lib/log/logger.ts';
import { createRouter } from '../../lib/runtime/router.ts';
import { apiGatewayEvent } from '../helpers/api-gateway.ts';
import { useTestServer } from '../helpers/server.ts';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends raw bytes and reads the answer until the server closes or the declared body arrived. */
function raw(port: number, request: Buffer | string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const finish = () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const at = line.indexOf(':');
        headers[line.slice(0, at).toLowerCase()] = line.slice(at + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    };
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      const text = Buffer.concat(chunks).toString('utf8');
      const at = text.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(text.slice(0, at));
      if (at >= 0 && length && Buffer.byteLength(text.slice(at + 4)) >= Number(length[1])) {
        socket.destroy();
        finish();
      }
    });
    socket.on('end', finish);
    socket.on('error', (error) => (chunks.length > 0 ? finish() : reject(error)));
    socket.end(request);
  });
}

function expectErrorBody(
  answer: { status: number; headers: Record<string, string>; body: string },
  status: number,
) {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(answer.body) as { status: number; message: string; instance: string };
  expect(body.status).toBe(status);
  expect(body.message).not.toBe('');
  expect(body.instance).not.toBe('');
  expect(answer.body.length).toBeLessThan(1000);
  return body;
}

const get = (target: string, headers = '') => `GET ${target} HTTP/1.1\r\nhost: localhost\r\n${headers}\r\n`;

describe('clean answers before routing, node:http', () => {
  const server = useTestServer({}, { transport: 'node' });
  const port = () => server.server.port;

  it('answers a 20 KB header with 431 and the error body', async () => {
    const body = expectErrorBody(await raw(port(), get('/health', `x-big: ${'a'.repeat(20_000)}\r\n`)), 431);
    expect(body.message).toMatch(/limit of 16384 bytes/);
  });

  it('answers 100 KB of headers, beyond what the parser reads, with 431 and the error body', async () => {
    const headers = Array.from({ length: 2000 }, (_, i) => `x-h${i}: ${'a'.repeat(40)}\r\n`).join('');
    expectErrorBody(await raw(port(), get('/health', headers)), 431);
  });

  it('answers a 20 KB path with 414 and the error body', async () => {
    const body = expectErrorBody(await raw(port(), get(`/api/workflow/${'w'.repeat(20_000)}`)), 414);
    expect(body.message).toMatch(/limit of 8192 bytes/);
  });

  it('answers a 100 KB path, beyond what the parser reads, with 414 and the error body', async () => {
    expectErrorBody(await raw(port(), get(`/api/workflow/${'w'.repeat(100_000)}`)), 414);
  });

  it('answers a raw non-UTF-8 byte in the path with 400 and the error body', async () => {
    const request = Buffer.concat([
      Buffer.from('GET /api/workflow/'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from(' HTTP/1.1\r\nhost: x\r\n\r\n'),
    ]);
    expectErrorBody(await raw(port(), request), 400);
  });

  it('answers bad percent-encoding with 400 and the error body', async () => {
    expectErrorBody(await raw(port(), get('/api/workflow/%FF%FE')), 400);
    expectErrorBody(await raw(port(), get('/api/workflow/%zz')), 400);
  });

  it('answers NUL and CRLF injected into the request line with 400 and the error body', async () => {
    expectErrorBody(await raw(port(), 'GET /api/work\0flow HTTP/1.1\r\nhost: x\r\n\r\n'), 400);
    expectErrorBody(await raw(port(), 'GET /api/a\rb HTTP/1.1\r\nhost: x\r\n\r\n'), 400);
  });

  it('answers methods no route has with 405 and the error body', async () => {
    expectErrorBody(
      await raw(port(), 'PROPFIND /api/workflow/x HTTP/1.1\r\nhost: x\r\ncontent-length: 0\r\n\r\n'),
      405,
    );
    expectErrorBody(await raw(port(), 'TRACE /health HTTP/1.1\r\nhost: x\r\n\r\n'), 405);
  });

  it('stays healthy after all of that', async () => {
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });
});

describe('clean answers before routing, Lambda adapter', () => {
  const server = useTestServer({}, { transport: 'node' });
  const handler = () =>
    lambdaHttpHandler(async () => ({
      router: createRouter(server.server.services),
      logger: silentLogger,
      instance: 'lambda-edge',
      maxBodyBytes: 1024,
    }));
  const answer = async (event: ReturnType<typeof apiGatewayEvent>) => {
    const result = await handler()(event);
    return {
      status: result.statusCode ?? 0,
      headers: (result.headers ?? {}) as Record<string, string>,
      body: result.body ?? '',
    };
  };

  it('answers 431, 414, 400, 405 and 413 with the error body', async () => {
    expectErrorBody(
      await answer(
        apiGatewayEvent({ method: 'GET', url: '/health', headers: { 'x-big': 'a'.repeat(20_000) } }),
      ),
      431,
    );
    expectErrorBody(
      await answer(apiGatewayEvent({ method: 'GET', url: `/api/workflow/${'w'.repeat(20_000)}` })),
      414,
    );
    expectErrorBody(await answer(apiGatewayEvent({ method: 'GET', url: '/api/workflow/%FF' })), 400);
    expectErrorBody(await answer(apiGatewayEvent({ method: 'GET', url: '/api/workflow/\uD800x' })), 400);
    expectErrorBody(await answer(apiGatewayEvent({ method: 'TRACE', url: '/health' })), 405);
    expectErrorBody(await answer(apiGatewayEvent({ method: 'CONNECT', url: '/health' })), 405);
    expectErrorBody(
      await answer(
        apiGatewayEvent({ method: 'POST', url: '/api/metadata/taskdefs', body: 'x'.repeat(2000) }),
      ),
      413,
    );
  });
});
