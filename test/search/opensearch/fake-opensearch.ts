/**
 * A loopback HTTP stand-in for OpenSearch at the adapter's edge: it records every request (method,
 * path, headers, body) and answers what the test queued, so the tests assert what the adapter
 * sends over the wire (index, DSL body, SigV4 headers) and how it reads OpenSearch's answers.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Answer {
  status: number;
  body?: unknown;
}

export class FakeOpenSearch {
  readonly requests: SeenRequest[] = [];
  private readonly answers: Answer[] = [];
  private server?: Server;
  url = '';

  /** Queues the answers to the next requests, in order (200 `{}` when none is left). */
  answer(...answers: Answer[]): void {
    this.answers.push(...answers);
  }

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        this.requests.push({
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        const answer = this.answers.shift() ?? { status: 200, body: {} };
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
      });
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

/** A search answer with these sources and total. */
export const hitsOf = (total: number, sources: Record<string, unknown>[]): Answer => ({
  status: 200,
  body: {
    took: 1,
    hits: { total: { value: total, relation: 'eq' }, hits: sources.map((_source) => ({ _source })) },
  },
});
