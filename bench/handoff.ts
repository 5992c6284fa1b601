/**
 * Hand-off and DO_WHILE iteration latency (`npm run bench:handoff`): a worker's long poll answered
 * by the queueing of its task, against the local server in a child process (in-memory store) over
 * loopback HTTP. Options: `--samples` (hand-offs, default 300), `--iterations` (DO_WHILE, 300),
 * `--warmup` (hand-offs and iterations before measuring, 50), `--store` (memory; embedded, dynamodb).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Args } from './lib/args.ts';
import { startChildServer } from './lib/child-server.ts';
import { measureHandoff, measureLoop, registerHandoffWorkload } from './lib/handoff.ts';
import { HttpClient } from './lib/http-client.ts';
import { loadAverage } from './lib/machine.ts';
import { fmt, heading, mean, percentile, table } from './lib/stats.ts';

const args = new Args();
const samples = args.int('samples', 300, 1);
const iterations = args.int('iterations', 300, 2);
const warmup = args.int('warmup', 50);
const store = args.string('store', 'memory');

const dataDir = mkdtempSync(join(tmpdir(), 'bench-handoff-'));
const server = await startChildServer({ env: { SERVICE_STORE: store, SERVICE_LOCAL_DATA_DIR: dataDir } });
const client = new HttpClient(server.url, 4);
try {
  await registerHandoffWorkload(client);
  if (warmup > 0) {
    await measureHandoff(client, warmup);
    await measureLoop(client, warmup + 1);
    await measureLoop(client, warmup + 1, 'sdk');
  }
  const handoff = await measureHandoff(client, samples);
  const loop = await measureLoop(client, iterations + 1);
  const sdkLoop = await measureLoop(client, iterations + 1, 'sdk');
  console.log(heading('Hand-off: a queued task reaching a waiting long poll (HTTP over loopback)'));
  const row = (name: string, values: number[]) => [
    name,
    String(values.length),
    fmt(percentile(values, 50), 3),
    fmt(percentile(values, 90), 3),
    fmt(percentile(values, 99), 3),
    fmt(mean(values), 3),
  ];
  console.log(
    table(
      ['measure', 'samples', 'p50 ms', 'p90 ms', 'p99 ms', 'mean ms'],
      [
        row('hand-off: update of a answered -> waiting poll of b answered', handoff),
        row('DO_WHILE iteration, one SIMPLE body, one long-polling worker (POST /api/tasks)', loop),
        row("DO_WHILE iteration, the same with the SDK's update-v2 loop", sdkLoop),
      ],
    ),
  );
  console.log(`load average: ${loadAverage()}`);
} finally {
  client.close();
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
