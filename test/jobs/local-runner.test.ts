// The local job runner (lib/jobs/local-runner.ts): a catch-up tick at start, then each job on its
// interval until stop; a manual tick for tests; gates, failures and overlapping runs.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LocalJobRunner } from '../../lib/jobs/local-runner.ts';
import type { JobContext, JobDeps, PeriodicJob } from '../../lib/jobs/types.ts';
import { silentLogger } from '../../lib/log/logger.ts';
import { ManualClock } from '../../lib/model/clock.ts';
import type { Stores } from '../../lib/store/ports.ts';

interface Call {
  now: number;
  catchUp: boolean;
}

function countingJob(overrides: Partial<PeriodicJob> = {}): PeriodicJob & { calls: Call[] } {
  const calls: Call[] = [];
  return {
    name: 'sweeper',
    summary: 'counts its runs',
    every: '1 minute',
    timeoutSeconds: 10,
    grants: { tables: [], sends: [] },
    run: async (_deps: JobDeps, now: number, { catchUp }: JobContext) => {
      calls.push({ now, catchUp });
      return calls.length;
    },
    ...overrides,
    calls,
  };
}

function depsAt(clock: ManualClock, logger = silentLogger): JobDeps {
  const unused = async () => {
    throw new Error('not used by these jobs');
  };
  return {
    stores: {} as Stores,
    decisions: { request: unused, requestForTasks: unused, wakeAt: unused, settled: unused },
    clock,
    logger,
    decide: unused,
    runSystemTask: unused,
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the local job runner', () => {
  it('runs every job once per tick, at the time given, and reports what each returned', async () => {
    const clock = new ManualClock();
    const job = countingJob();
    const runner = new LocalJobRunner({ jobs: [job], deps: depsAt(clock) });
    expect(await runner.tick(clock.now() + 5000)).toEqual([{ job: 'sweeper', result: 1 }]);
    expect(job.calls).toEqual([{ now: clock.now() + 5000, catchUp: false }]);
  });

  it('starts with a catch-up tick, then runs each job on its interval until stopped', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const clock = new ManualClock();
    const job = countingJob();
    const runner = new LocalJobRunner({ jobs: [job], deps: depsAt(clock) });
    await runner.start();
    expect(job.calls).toEqual([{ now: clock.now(), catchUp: true }]);

    clock.advance(60_000);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(job.calls.at(-1)).toEqual({ now: clock.now(), catchUp: false });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(job.calls).toHaveLength(3);

    await runner.stop();
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(job.calls).toHaveLength(3);
    expect(await runner.tick(clock.now())).toEqual([{ job: 'sweeper', error: 'skipped' }]);
  });

  it('leaves out a job whose gate is off', async () => {
    const clock = new ManualClock();
    const gated = countingJob({ gate: 'scheduler' });
    const runner = new LocalJobRunner({ jobs: [gated], deps: depsAt(clock), gateOn: () => false });
    expect(await runner.tick(clock.now())).toEqual([]);
    expect(gated.calls).toEqual([]);
  });

  it('logs a failed run instead of throwing, so the next tick is its retry', async () => {
    const clock = new ManualClock();
    const errors: unknown[] = [];
    const logger = {
      ...silentLogger,
      error: (_message: string, fields?: unknown) => void errors.push(fields),
    };
    const failing = countingJob({
      run: async () => {
        throw new Error('store unavailable');
      },
    });
    const runner = new LocalJobRunner({ jobs: [failing], deps: depsAt(clock, logger) });
    expect(await runner.tick(clock.now())).toEqual([{ job: 'sweeper', error: 'store unavailable' }]);
    expect(errors).toEqual([{ job: 'sweeper', error: 'store unavailable' }]);
  });

  it('skips a tick that comes while the same job is still running, rather than stacking runs', async () => {
    const clock = new ManualClock();
    let finish: () => void = () => {};
    const slow = countingJob({ run: () => new Promise<number>((done) => (finish = () => done(1))) });
    const runner = new LocalJobRunner({ jobs: [slow], deps: depsAt(clock) });
    const first = runner.tick(clock.now());
    expect(await runner.tick(clock.now())).toEqual([{ job: 'sweeper', error: 'skipped' }]);
    finish();
    expect(await first).toEqual([{ job: 'sweeper', result: 1 }]);
  });
});
