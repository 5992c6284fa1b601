/**
 * File storage benchmark (`npm run bench:files`): one file of --mib MiB (default 100) uploaded and
 * downloaded through the `service` backend of the local server (a child process, in-memory store,
 * files in a temporary directory), with the worker client (lib/client/files.ts): one streamed PUT,
 * one streamed GET. Prints MB/s each way and the server's peak resident memory growth during each
 * transfer (VmHWM after the transfer minus VmRSS before it; the peak is reset before each one
 * through /proc/<pid>/clear_refs). Aim: under 32 MiB of growth, i.e. the file is never held whole.
 * A 1 MiB warm-up transfer runs first and is not reported. Options: --mib=100 --runs=3
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { FileClient } from '../lib/client/files.ts';
import { Args } from './lib/args.ts';
import { startChildServer } from './lib/child-server.ts';
import { loadAverage } from './lib/machine.ts';
import { fmt, heading, table } from './lib/stats.ts';

const args = new Args();
const mib = args.int('mib', 100, 1);
const runs = args.int('runs', 3, 1);
const bytes = mib * 1024 * 1024;

const work = mkdtempSync(join(tmpdir(), 'bench-files-'));
const storage = join(work, 'storage');
const source = join(work, 'source.bin');

/** Writes the source file in 1 MiB random chunks (never the whole file in memory). */
async function writeSource(): Promise<string> {
  const file = await open(source, 'w');
  const hash = createHash('sha256');
  for (let i = 0; i < mib; i++) {
    const chunk = randomBytes(1024 * 1024);
    hash.update(chunk);
    await file.write(chunk);
  }
  await file.close();
  return hash.digest('hex');
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

const kbOf = (status: string, field: string) =>
  Number(new RegExp(`${field}:\\s+(\\d+)\\s+kB`).exec(status)?.[1]);

/** Resets the peak, runs the transfer, answers the peak growth in MiB over the resident size before. */
async function measured(
  pid: number,
  transfer: () => Promise<void>,
): Promise<{ ms: number; growthMib: number }> {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
  const before = kbOf(readFileSync(`/proc/${pid}/status`, 'utf8'), 'VmRSS');
  const started = performance.now();
  await transfer();
  const ms = performance.now() - started;
  const peak = kbOf(readFileSync(`/proc/${pid}/status`, 'utf8'), 'VmHWM');
  return { ms, growthMib: (peak - before) / 1024 };
}

async function main(): Promise<void> {
  console.log(heading(`File storage: ${mib} MiB through the service backend, ${runs} runs`));
  console.log(`load average before: ${loadAverage()}`);
  const expected = await writeSource();
  const server = await startChildServer({
    env: {
      SERVICE_FILE_STORAGE_ENABLED: 'true',
      SERVICE_FILE_STORAGE_SERVICE_DIRECTORY: storage,
      SERVICE_FILE_STORAGE_SERVICE_MAX_SIZE: String(bytes),
    },
  });
  try {
    const started = await fetch(`${server.url}/api/workflow`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'bench_files',
        workflowDef: {
          name: 'bench_files',
          version: 1,
          tasks: [{ name: 'w', taskReferenceName: 'w', type: 'SIMPLE' }],
        },
      }),
    });
    const workflowId = await started.text();
    const client = new FileClient({ serverUrl: server.url, workflowId });
    // Warm-up, not reported: the first transfer loads code and grows the heap once.
    const small = join(work, 'warmup.bin');
    writeFileSync(small, randomBytes(1024 * 1024));
    await client.download(await client.upload(small), join(work, 'warmup.copy'));
    const rows: string[][] = [];
    for (let run = 1; run <= runs; run++) {
      let handle = '';
      const up = await measured(server.pid, async () => {
        handle = await client.upload(source);
      });
      const destination = join(work, `copy-${run}.bin`);
      const down = await measured(server.pid, () => client.download(handle, destination));
      if ((await sha256Of(destination)) !== expected)
        throw new Error('The downloaded file differs from the source');
      rmSync(destination);
      const mbps = (ms: number) => fmt(bytes / 1e6 / (ms / 1000), 1);
      rows.push([String(run), mbps(up.ms), fmt(up.growthMib, 1), mbps(down.ms), fmt(down.growthMib, 1)]);
    }
    console.log(
      table(
        ['run', 'upload MB/s', 'upload peak RSS growth MiB', 'download MB/s', 'download peak RSS growth MiB'],
        rows,
      ),
    );
    console.log('Upload includes upload-complete (the server re-reads the file for its SHA-256).');
    console.log(`load average after: ${loadAverage()}`);
  } finally {
    await server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
