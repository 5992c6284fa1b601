/**
 * Runs the periodic jobs in process: on their intervals under `npm start`, and on a manual
 * `tick(now)` in tests (which never sleep). The first tick after start is a catch-up tick (see
 * JobContext): the local host's timers died with its last process, so the jobs first make up for
 * what they may have missed. A job whose gate is off does not run. A failed run is logged; the next
 * interval is its retry, as the next EventBridge tick is on AWS.
 */
import { type GateName, gatedOn } from '../config/properties.ts';
import { errorMessage } from '../model/errors.ts';
import type { JobDeps, PeriodicJob } from './types.ts';
import { rateMs } from './types.ts';

export interface LocalJobRunnerOptions {
  jobs: readonly PeriodicJob[];
  deps: JobDeps;
  /** A job's own deps (with what its capability provides); `deps` for every job when absent. */
  depsFor?(job: PeriodicJob): JobDeps;
  /** Whether a gate is on; jobs without a gate always run. */
  gateOn?: (gate: GateName) => boolean;
}

export interface JobOutcome {
  job: string;
  result?: unknown;
  error?: string;
}

export class LocalJobRunner {
  private readonly intervals: NodeJS.Timeout[] = [];
  private readonly running = new Set<Promise<unknown>>();
  /** A job's run still in flight: an interval that comes meanwhile is skipped, not stacked. */
  private readonly busy = new Set<string>();
  private stopped = false;
  /** Each job's deps, built on its first run. */
  private readonly deps = new Map<PeriodicJob, JobDeps>();

  constructor(private readonly options: LocalJobRunnerOptions) {}

  private depsOf(job: PeriodicJob): JobDeps {
    let deps = this.deps.get(job);
    if (deps === undefined) {
      deps = this.options.depsFor?.(job) ?? this.options.deps;
      this.deps.set(job, deps);
    }
    return deps;
  }

  private get clock(): JobDeps['clock'] {
    return this.options.deps.clock;
  }

  get jobs(): readonly PeriodicJob[] {
    const { jobs, gateOn = () => true } = this.options;
    return jobs.filter((job) => gatedOn(job, gateOn));
  }

  /** Runs the catch-up tick, then every job on its own interval until stop(). */
  async start(): Promise<JobOutcome[]> {
    const outcomes = await this.tick(this.clock.now(), { catchUp: true });
    for (const job of this.jobs) {
      const interval = setInterval(() => void this.runOne(job, this.clock.now(), false), rateMs(job.every));
      // The jobs never keep the process alive on their own.
      interval.unref();
      this.intervals.push(interval);
    }
    return outcomes;
  }

  /** Runs every enabled job once, as at `now`; resolves when they are done. */
  async tick(now: number, { catchUp = false }: { catchUp?: boolean } = {}): Promise<JobOutcome[]> {
    return Promise.all(this.jobs.map((job) => this.runOne(job, now, catchUp)));
  }

  /** Stops the intervals and waits for runs in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const interval of this.intervals.splice(0)) clearInterval(interval);
    await Promise.allSettled([...this.running]);
  }

  private async runOne(job: PeriodicJob, now: number, catchUp: boolean): Promise<JobOutcome> {
    if (this.stopped || this.busy.has(job.name)) return { job: job.name, error: 'skipped' };
    this.busy.add(job.name);
    const run = job.run(this.depsOf(job), now, { catchUp });
    this.running.add(run);
    try {
      return { job: job.name, result: await run };
    } catch (error) {
      const message = errorMessage(error);
      this.options.deps.logger.error('periodic job failed; the next tick retries', {
        job: job.name,
        error: message,
      });
      return { job: job.name, error: message };
    } finally {
      this.running.delete(run);
      this.busy.delete(job.name);
    }
  }
}
