/**
 * Synchronous execute benchmark (`npm run bench:execute`): POST /api/workflow/execute of a
 * 10-task workflow of INLINE and SET_VARIABLE tasks (test/helpers/system-only.ts's shape), one
 * call at a time, against the local server in a child process, on the in-memory store and on the
 * default persistent store (embedded dynalite on disk, SERVICE_STORE=dynamodb, a temporary data
 * directory). Each call's latency is measured by the client, from request sent to answer read;
 * every answer must be COMPLETED. Options: --calls=1000 --warmup=100 --stores=memory,dynamodb.
 * Aim (issue 7): p50 <= 3 ms in memory, <= 10 ms persistent.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Args } from './lib/args.ts';
import { startChildServer } from './lib/child-server.ts';
import { ref } from './lib/definitions.ts';
import { expectStatus, HttpClient } from './lib/http-client.ts';
import { loadAverage } from './lib/machine.ts';
import { fmt, heading, mean, percentile, table } from './lib/stats.ts';

const WORKFLOW = 'bench_execute_system_only';
/** A `${path}` parameter template. */

const args = new Args();
const calls = args.int('calls', 1000, 1);
const warmup = args.int('warmup', 100);
const stores = args
  .string('stores', 'memory,embedded,dynamodb')
  .split(',')
  .map((s) => s.trim());

/** Ten tasks: INLINE and SET_VARIABLE in turn, each reading the one before. */
function definition(): Record<string, unknown> {
  const tasks: Record<string, unknown>[] = [];
  for (let i = 0; i < 10; i++) {
    tasks.push(
      i % 2 === 0
        ? {
            name: `step${i}`,
            taskReferenceName: `step${i}`,
            type: 'INLINE',
            inputParameters: {
              evaluatorType: 'javascript',
              expression: '$.n + 1',
              n: i === 0 ? ref('workflow.input.n') : ref('workflow.variables.n'),
            },
          }
        : {
            name: `var${i}`,
            taskReferenceName: `var${i}`,
            type: 'SET_VARIABLE',
            inputParameters: { n: ref(`step${i - 1}.output.result`) },
          },
    );
  }
  return { name: WORKFLOW, version: 1, tasks, outputParameters: { n: ref('workflow.variables.n') } };
}

interface Result {
  store: string;
  latencies: number[];
}

async function measure(store: string): Promise<Result> {
  const dataDir = store !== 'memory' ? mkdtempSync(join(tmpdir(), 'bench-execute-')) : undefined;
  const server = await startChildServer({
    env: { SERVICE_STORE: store, ...(dataDir ? { SERVICE_LOCAL_DATA_DIR: dataDir } : {}) },
  });
  const http = new HttpClient(server.url, 1);
  try {
    expectStatus(await http.post('/api/metadata/workflow?overwrite=true', definition()), 'register');
    const path = `/api/workflow/execute/${WORKFLOW}/1`;
    const latencies: number[] = [];
    for (let i = 0; i < warmup + calls; i++) {
      const started = performance.now();
      const answer = expectStatus(await http.post(path, { input: { n: i } }), 'execute');
      const elapsed = performance.now() - started;
      const run = JSON.parse(answer.body) as { status: string; output: { n: number } };
      if (run.status !== 'COMPLETED' || run.output.n !== i + 5) {
        throw new Error(`execute answered ${run.status} with output ${JSON.stringify(run.output)}`);
      }
      if (i >= warmup) latencies.push(elapsed);
    }
    return { store, latencies };
  } finally {
    http.close();
    await server.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

const results: Result[] = [];
for (const store of stores) results.push(await measure(store));

console.log(
  heading(`synchronous execute, 10 system tasks, ${calls} calls one at a time (+${warmup} warm-up)`),
);
console.log(
  table(
    ['store', 'p50 ms', 'p90 ms', 'p99 ms', 'mean ms', 'max ms'],
    results.map(({ store, latencies }) => [
      store === 'dynamodb' ? 'dynamodb (embedded dynalite, on disk)' : store,
      fmt(percentile(latencies, 50)),
      fmt(percentile(latencies, 90)),
      fmt(percentile(latencies, 99)),
      fmt(mean(latencies)),
      fmt(Math.max(...latencies)),
    ]),
  ),
);
console.log(`load average: ${loadAverage()}`);
