/**
 * The machine's HTTP floor: what a bare node:http server costs per keep-alive request on this
 * machine, so every CPU figure of the service can be read beside the least any node:http server
 * could spend. A child process runs a server that reads a small JSON body and answers a small JSON
 * body, nothing else; the benchmark's own client (bench/lib/http-client.ts) sends it POSTs from
 * `concurrency` callers, and the child reports its CPU time (process.cpuUsage) before and after.
 */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { expectStatus, HttpClient } from './http-client.ts';

/**
 * The bare server: answers GET /cpu with its process.cpuUsage(), anything else with ~250 bytes of
 * JSON once the request body has been read (a task update's body and a small task's answer are of
 * that order). It prints its port when listening.
 */
const BARE_SERVER = `
const http = require('node:http');
const answer = Buffer.from(JSON.stringify({ ok: true, pad: 'x'.repeat(230) }));
const server = http.createServer((req, res) => {
  req.on('data', () => {});
  req.on('end', () => {
    if (req.url === '/cpu') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(process.cpuUsage()));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.length });
    res.end(answer);
  });
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => console.log('port ' + server.address().port));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

/** A request body of the size of a worker's TaskResult. */
const REQUEST_BODY = {
  workflowInstanceId: '00000000-0000-4000-8000-000000000000',
  taskId: '00000000-0000-4000-8000-000000000001',
  status: 'COMPLETED',
  workerId: 'bench-worker-0',
  outputData: { by: 'bench-worker-0', ref: 't1' },
};

export interface HttpFloor {
  requests: number;
  concurrency: number;
  /** User + system CPU of the bare server per request, µs. */
  serverCpuUs: number;
  /** CPU of this process (the client) per request, µs. */
  clientCpuUs: number;
  requestsPerSecond: number;
}

export interface HttpFloorOptions {
  /** Requests measured (after `warmup` unmeasured ones). */
  requests?: number;
  warmup?: number;
  /** Callers in flight at once, each on its own keep-alive socket. */
  concurrency?: number;
}

interface CpuUsage {
  user: number;
  system: number;
}

export async function measureHttpFloor(options: HttpFloorOptions = {}): Promise<HttpFloor> {
  const requests = options.requests ?? 20_000;
  const warmup = options.warmup ?? 2_000;
  const concurrency = options.concurrency ?? 8;
  const child = spawn(process.execPath, ['-e', BARE_SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let out = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
        const match = /port (\d+)/.exec(out);
        if (match) resolve(Number(match[1]));
      });
      child.once('exit', (code) => reject(new Error(`the bare node:http server exited with code ${code}`)));
    });
    const client = new HttpClient(`http://127.0.0.1:${port}`, concurrency + 1);
    try {
      const run = async (n: number) => {
        let sent = 0;
        await Promise.all(
          Array.from({ length: concurrency }, async () => {
            while (sent++ < n) expectStatus(await client.post('/floor', REQUEST_BODY), 'bare server');
          }),
        );
      };
      const serverCpu = async () =>
        JSON.parse(expectStatus(await client.get('/cpu'), 'bare server cpu').body) as CpuUsage;
      await run(warmup);
      const before = await serverCpu();
      const own = process.cpuUsage();
      const t0 = performance.now();
      await run(requests);
      const wallMs = performance.now() - t0;
      const ownUsed = process.cpuUsage(own);
      const after = await serverCpu();
      return {
        requests,
        concurrency,
        serverCpuUs: (after.user + after.system - before.user - before.system) / requests,
        clientCpuUs: (ownUsed.user + ownUsed.system) / requests,
        requestsPerSecond: (requests * 1000) / wallMs,
      };
    } finally {
      client.close();
    }
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  }
}

/** The floor's server CPU per SIMPLE task at `requestsPerTask` HTTP requests each, ms. */
export const floorMsPerTask = (floor: HttpFloor, requestsPerTask: number): number =>
  (floor.serverCpuUs * requestsPerTask) / 1000;
