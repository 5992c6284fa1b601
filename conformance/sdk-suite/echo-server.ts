/**
 * The HTTP echo service the SDK's integration suite expects at `HTTPBIN_SERVICE_HOSTNAME:8081`
 * (upstream runs an httpbin container there). The suite's workflows send HTTP tasks to
 * `GET /api/hello?name=...` and only need a 200 with a JSON body; every other path answers the same
 * way, so a test reaching for another route sees an echo of its request rather than a refusal.
 */
import { createServer, type Server } from 'node:http';

export interface EchoServer {
  url: string;
  /** Requests answered so far, by path (without the query). */
  hits: Map<string, number>;
  close(): Promise<void>;
}

export async function startEchoServer(host: string, port: number): Promise<EchoServer> {
  const hits = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', `http://${host}:${port}`);
      hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
      const body = Buffer.concat(chunks).toString('utf8');
      const query = Object.fromEntries(url.searchParams);
      const answer = {
        ...(url.pathname === '/api/hello' ? { message: `Hello, ${query.name ?? 'world'}` } : {}),
        method: request.method,
        path: url.pathname,
        query,
        headers: request.headers,
        body: parseJson(body),
      };
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(
              `Port ${port} on ${host} is already in use: the SDK's suite sends its HTTP tasks to that port, so the echo service must own it (stop whatever listens there)`,
            )
          : error,
      ),
    );
    server.listen(port, host, () => resolve());
  });
  return {
    url: `http://${host}:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
