/**
 * The benchmarks' `--payload-bytes` (bench/lib/payload.ts): payloads of the asked size, shaped like
 * real JSON (they deflate like it, neither to nothing nor not at all), carried through the workload.
 */
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { Args } from '../../bench/lib/args.ts';
import { MAX_PAYLOAD_BYTES, payloadBytesOption, payloadOf, payloadPool } from '../../bench/lib/payload.ts';
import { totalOf } from '../../bench/lib/tally.ts';
import { countLoad, type WorkloadShape } from '../../bench/lib/throughput-run.ts';
import { TASKS_PER_WORKFLOW } from '../../bench/lib/workload.ts';

describe('benchmark payloads', () => {
  it('are about the asked size, the same for a seed and different between seeds', () => {
    for (const bytes of [200, 4096, 20_000]) {
      const json = JSON.stringify(payloadOf(bytes, 7));
      expect(json.length).toBeGreaterThanOrEqual(bytes);
      expect(json.length).toBeLessThan(bytes + 200);
    }
    expect(payloadOf(4096, 7)).toEqual(payloadOf(4096, 7));
    expect(payloadOf(4096, 7)).not.toEqual(payloadOf(4096, 8));
    expect(new Set(payloadPool(1000, 4).map((p) => JSON.stringify(p))).size).toBe(4);
  });

  it('deflate like business JSON: by a few times, neither to nothing nor not at all', () => {
    const json = JSON.stringify(payloadOf(4096, 1));
    const ratio = json.length / deflateRawSync(json, { level: 1 }).byteLength;
    expect(ratio).toBeGreaterThan(2);
    expect(ratio).toBeLessThan(8);
  });

  it('--payload-bytes defaults to none and stays below the external-payload threshold', () => {
    expect(payloadBytesOption(new Args([], {}))).toBe(0);
    expect(payloadBytesOption(new Args(['--payload-bytes=4096'], {}))).toBe(4096);
    expect(() => payloadBytesOption(new Args([`--payload-bytes=${MAX_PAYLOAD_BYTES + 1}`], {}))).toThrow(
      /--payload-bytes must be at most/,
    );
  });

  it('flow through the workload: runs complete, and every task row carries them', async () => {
    const shape = (payloadBytes: number): WorkloadShape => ({
      taskTypes: 5,
      workers: 2,
      batch: 1,
      pollTimeoutMs: 50,
      startConcurrency: 2,
      inflight: 4,
      worker: 'plain',
      payloadBytes,
    });
    const plain = await countLoad(shape(0), 4);
    const loaded = await countLoad(shape(2048), 4);
    expect(loaded.result.errors).toEqual([]);
    expect(loaded.result.tasksCompleted).toBe(4 * TASKS_PER_WORKFLOW);
    const bytesOf = (c: typeof plain) => totalOf(c.snapshot).bytesWritten / c.result.tasksCompleted;
    // Every row write carries a 2 KB input (and the completing one a 2 KB output), deflated or not.
    expect(bytesOf(loaded) - bytesOf(plain)).toBeGreaterThan(1000);
  });
});
