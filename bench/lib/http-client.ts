/**
 * A small keep-alive HTTP/1.1 client on node:http. The load generator runs in the same kind of
 * single-threaded process as the server, so the client must cost little per request: no fetch/undici
 * machinery, one pooled socket per concurrent caller.
 */
import { Agent, request as httpRequest } from 'node:http';

export interface HttpResult {
  status: number;
  body: string;
}

export class HttpClient {
  private readonly agent: Agent;
  private readonly host: string;
  private readonly port: number;
  /** Requests sent and failed (transport errors and 5xx). */
  sent = 0;
  failed = 0;

  constructor(baseUrl: string, maxSockets = 64) {
    const url = new URL(baseUrl);
    this.host = url.hostname.replace(/^\[|\]$/g, '');
    this.port = Number(url.port);
    this.agent = new Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
  }

  get(path: string): Promise<HttpResult> {
    return this.send('GET', path);
  }

  post(path: string, body: unknown): Promise<HttpResult> {
    return this.send('POST', path, JSON.stringify(body));
  }

  /** Sends one request; transport errors are retried a few times (a busy loopback can reset). */
  async send(method: string, path: string, body?: string): Promise<HttpResult> {
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await this.once(method, path, body);
        this.sent++;
        if (result.status >= 500) this.failed++;
        return result;
      } catch (error) {
        if (attempt >= 3) {
          this.failed++;
          throw error;
        }
      }
    }
  }

  private once(method: string, path: string, body?: string): Promise<HttpResult> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string | number> = {};
      if (body !== undefined) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = Buffer.byteLength(body);
      }
      const req = httpRequest(
        { host: this.host, port: this.port, method, path, headers, agent: this.agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Throws with the response text unless the status is one of `ok`. */
export function expectStatus(result: HttpResult, what: string, ok: readonly number[] = [200]): HttpResult {
  if (!ok.includes(result.status)) {
    throw new Error(`${what}: HTTP ${result.status} ${result.body.slice(0, 300)}`);
  }
  return result;
}
