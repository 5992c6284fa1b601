/**
 * The local consumer host: every queue consumer of the capability list whose gate is on runs in
 * this process, over an in-process work queue per consumer (lib/queue/local-work-queue.ts), as
 * LocalJobRunner runs the periodic jobs. The queue takes its settings from the consumer's own
 * descriptor: FIFO or standard, deliveries before a message is dropped (SQS's maxReceiveCount),
 * how waiting messages of one group merge. `consumer.local` says where the local host differs
 * (retries without end, a concurrency bound, or a stand-in that replaces the queue). Senders get
 * these queues from the host (`queues()`), so a message sent locally reaches the same handler a
 * Lambda would run on AWS.
 */
import { type GateName, gatedOn, type PropertyName } from '../config/properties.ts';
import type { Logger } from '../log/logger.ts';
import { LocalWorkQueue, type Timers } from '../queue/local-work-queue.ts';
import type { Consumer, JobDeps } from './types.ts';

export interface LocalConsumerHostOptions {
  // biome-ignore lint/suspicious/noExplicitAny: each consumer's message type is its own.
  consumers: readonly Consumer<any>[];
  logger: Logger;
  /** Whether a gate is on; consumers behind a gate that is off do not run (nor get a queue). */
  gateOn(gate: GateName): boolean;
  /** An integer property (a consumer's `local.concurrency`). */
  number(property: PropertyName): number;
  timers?: Timers;
}

interface Hosted {
  consumer: Consumer<unknown>;
  queue: LocalWorkQueue<unknown>;
}

export class LocalConsumerHost {
  private readonly hosted = new Map<string, Hosted>();

  constructor(private readonly options: LocalConsumerHostOptions) {
    for (const consumer of options.consumers) {
      if (!gatedOn(consumer, options.gateOn)) continue;
      if (consumer.local?.standIn !== undefined) continue;
      const { name, type, maxReceiveCount } = consumer.queue;
      const queue = new LocalWorkQueue<unknown>({
        name,
        type,
        logger: options.logger,
        timers: options.timers,
        coalesce: consumer.coalesce?.bind(consumer),
        maxAttempts: consumer.local?.attempts === 'unbounded' ? undefined : maxReceiveCount,
      });
      this.hosted.set(name, { consumer, queue });
    }
  }

  /** The in-process queue of each hosted consumer, by queue name: what the host's senders use. */
  queues(): Record<string, LocalWorkQueue<unknown>> {
    return Object.fromEntries([...this.hosted].map(([name, { queue }]) => [name, queue]));
  }

  /** The queue of one name, if its consumer runs here. */
  queue<M>(name: string): LocalWorkQueue<M> | undefined {
    return this.hosted.get(name)?.queue as LocalWorkQueue<M> | undefined;
  }

  /** Starts delivering: each message goes to its consumer with the deps the host builds for it. */
  start(depsOf: (consumer: Consumer<unknown>) => JobDeps): void {
    for (const { consumer, queue } of this.hosted.values()) {
      const deps = depsOf(consumer);
      const handle = (message: unknown) => consumer.handle(message, deps);
      const limit = consumer.local?.concurrency;
      queue.register(limit === undefined ? handle : bounded(this.options.number(limit), handle));
    }
  }

  /** Whether any hosted consumer is handling a message now. */
  busy(): boolean {
    return [...this.hosted.values()].some(({ queue }) => queue.busy());
  }

  /** Until every hosted queue has nothing running or waiting. */
  async idle(): Promise<void> {
    for (const { queue } of this.hosted.values()) await queue.idle();
  }

  async close(): Promise<void> {
    for (const { queue } of this.hosted.values()) await queue.close();
  }
}

/** Wraps a handler so that at most `limit` calls run at once; the rest wait in arrival order. */
export function bounded<M>(
  limit: number,
  handle: (message: M) => Promise<void>,
): (message: M) => Promise<void> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (message) => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      await handle(message);
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}
