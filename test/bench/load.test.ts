import { describe, expect, it } from 'vitest';
import { floorMsPerTask, measureHttpFloor } from '../../bench/lib/http-floor.ts';
import { workerModes } from '../../bench/lib/load.ts';
import { countLoad, type WorkloadShape } from '../../bench/lib/throughput-run.ts';
import { TASKS_PER_WORKFLOW } from '../../bench/lib/workload.ts';

const shape = (worker: 'plain' | 'sdk'): WorkloadShape => ({
  taskTypes: 5,
  workers: 3,
  batch: 1,
  pollTimeoutMs: 50,
  startConcurrency: 2,
  inflight: 10,
  worker,
});

describe('the benchmark load', () => {
  it('parses worker modes and refuses unknown ones', () => {
    expect(workerModes('plain')).toEqual(['plain']);
    expect(workerModes('sdk, plain,sdk')).toEqual(['sdk', 'plain']);
    expect(() => workerModes('sdk,java')).toThrow(/--worker must list plain and\/or sdk/);
    expect(() => workerModes('')).toThrow(/--worker/);
  });

  it('completes every run with plain workers: a poll and a POST /api/tasks per task', async () => {
    const { result } = await countLoad(shape('plain'), 12);
    expect(result.errors).toEqual([]);
    expect(result.tasksCompleted).toBe(12 * TASKS_PER_WORKFLOW);
    expect(result.chained).toBe(0);
    // Starts + one update per task + at least one poll per task.
    expect(result.httpRequests).toBeGreaterThanOrEqual(12 + 2 * result.tasksCompleted);
  });

  it('completes every run with SDK workers, which take most tasks from update-v2 answers', async () => {
    const { result } = await countLoad(shape('sdk'), 12);
    expect(result.errors).toEqual([]);
    expect(result.tasksCompleted).toBe(12 * TASKS_PER_WORKFLOW);
    // Every task is reached by a non-empty poll or an update-v2 answer, never both.
    expect(result.polls - result.emptyPolls + result.chained).toBe(result.tasksCompleted);
    expect(result.chained).toBeGreaterThan(0);
    expect(result.httpRequests).toBe(12 + result.polls + result.tasksCompleted);
  });
});

describe("the machine's HTTP floor", () => {
  it('measures the CPU of a bare node:http server per request, and scales it by requests per task', async () => {
    const floor = await measureHttpFloor({ requests: 300, warmup: 30, concurrency: 2 });
    expect(floor.requests).toBe(300);
    expect(floor.serverCpuUs).toBeGreaterThan(0);
    expect(floor.clientCpuUs).toBeGreaterThan(0);
    expect(floorMsPerTask({ ...floor, serverCpuUs: 100 }, 2.5)).toBeCloseTo(0.25, 10);
  });
});
