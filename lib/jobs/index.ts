/**
 * Every periodic job and queue consumer of the service. The local host runs the jobs on intervals
 * (local-runner.ts); on AWS the stack gives each its function and trigger (infra/stack.ts) and the
 * functions find their descriptor here by name (lib/runtime/aws.ts). A new one is one module and
 * one line here (docs/adding-background-work.md).
 */
import { decider, timer } from './decision-consumers.ts';
import { eventHandlers } from './event-handlers.ts';
import { expiredRuns } from './expired-runs.ts';
import { scheduleFire } from './schedule-fire.ts';
import { scheduleTick } from './schedule-tick.ts';
import { searchIndexer } from './search-indexer.ts';
import { sweeper } from './sweeper.ts';
import { systemTasks } from './system-tasks.ts';
import type {
  Consumer,
  ConsumerName,
  JobName,
  PeriodicJob,
  StreamConsumer,
  StreamConsumerName,
} from './types.ts';

export const JOBS: readonly PeriodicJob[] = [sweeper, scheduleTick];

// Each consumer's message type is its own; decode() is what turns a body into it.
export const CONSUMERS: readonly Consumer<unknown>[] = [
  decider,
  timer,
  scheduleFire,
  systemTasks,
  eventHandlers,
];

/** Consumers of a table's change stream; deployed only where they have work (deployedWith). */
export const STREAM_CONSUMERS: readonly StreamConsumer[] = [searchIndexer, expiredRuns];

export function streamConsumerNamed(name: StreamConsumerName): StreamConsumer {
  const consumer = STREAM_CONSUMERS.find((c) => c.name === name);
  if (consumer === undefined) throw new Error(`No stream consumer '${name}' in lib/jobs/index.ts`);
  return consumer;
}

export function jobNamed(name: JobName): PeriodicJob {
  const job = JOBS.find((j) => j.name === name);
  if (job === undefined) throw new Error(`No periodic job '${name}' in lib/jobs/index.ts`);
  return job;
}

export function consumerNamed(name: ConsumerName): Consumer<unknown> {
  const consumer = CONSUMERS.find((c) => c.name === name);
  if (consumer === undefined) throw new Error(`No consumer '${name}' in lib/jobs/index.ts`);
  return consumer;
}
