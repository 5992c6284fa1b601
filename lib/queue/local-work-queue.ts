/**
 * The work queue in process: delivers each message to the one registered handler. Messages of a
 * group are handled one at a time in send order (a keyed serial executor, as a FIFO message group
 * on SQS); messages without a group run at once. A message whose handler throws is delivered again
 * after a pause, as SQS does after its visibility timeout, up to maxAttempts.
 */
import type { Logger } from '../log/logger.ts';
import type { SendOptions, WorkQueue } from './ports.ts';
import { checkSend, type WorkQueueType } from './work-queues.ts';

/** Where the queue arms its delays; real timers by default, manual ones in tests. */
export interface Timers {
  set(fn: () => void, delayMs: number): unknown;
  clear(handle: unknown): void;
}

export const realTimers: Timers = {
  set: (fn, delayMs) => {
    const timer = setTimeout(fn, delayMs);
    // Pending deliveries never keep the process alive: close() is the orderly way out.
    timer.unref();
    return timer;
  },
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface LocalWorkQueueOptions {
  name: string;
  type: WorkQueueType;
  logger: Logger;
  timers?: Timers;
  /**
   * A message sent to a group that already has one waiting is dropped: for messages that ask for
   * work on a key ("decide this run"), where one pending request covers any number more.
   */
  coalesce?: boolean;
  /** Pause before a failed message is delivered again. */
  retryDelayMs?: number;
  /** Deliveries of one message before it is dropped (logged), as SQS moves it to its DLQ. */
  maxAttempts?: number;
}

interface Delivery<M> {
  message: M;
  attempt: number;
}

interface Lane<M> {
  running: Promise<void> | undefined;
  waiting: Delivery<M>[];
}

export class LocalWorkQueue<M> implements WorkQueue<M> {
  private handler: ((message: M) => Promise<void>) | undefined;
  private readonly lanes = new Map<string, Lane<M>>();
  private readonly ungrouped = new Set<Promise<void>>();
  private readonly pending = new Set<unknown>();
  private readonly timers: Timers;
  private closed = false;

  constructor(private readonly options: LocalWorkQueueOptions) {
    this.timers = options.timers ?? realTimers;
  }

  /** The consumer; messages delivered before one is registered are handled by nobody. */
  register(handler: (message: M) => Promise<void>): void {
    this.handler = handler;
  }

  async send(message: M, options: SendOptions = {}): Promise<void> {
    checkSend(this.options.name, this.options.type, options);
    if (this.closed) return;
    this.later({ message, attempt: 1 }, options.groupId, options.delayMs ?? 0);
  }

  /** Resolves when no message is being handled or waiting for its group (delayed ones aside). */
  async idle(): Promise<void> {
    while (true) {
      const running = [
        ...this.ungrouped,
        ...[...this.lanes.values()].map((lane) => lane.running).filter((p) => p !== undefined),
      ];
      if (running.length === 0) return;
      await Promise.allSettled(running);
    }
  }

  /** Drops delayed messages, stops taking new ones and waits for the running ones. */
  async close(): Promise<void> {
    this.closed = true;
    for (const handle of this.pending) this.timers.clear(handle);
    this.pending.clear();
    await this.idle();
  }

  private later(delivery: Delivery<M>, groupId: string | undefined, delayMs: number): void {
    if (delayMs <= 0) {
      this.dispatch(delivery, groupId);
      return;
    }
    const handle = this.timers.set(() => {
      this.pending.delete(handle);
      if (!this.closed) this.dispatch(delivery, groupId);
    }, delayMs);
    this.pending.add(handle);
  }

  private dispatch(delivery: Delivery<M>, groupId: string | undefined): void {
    if (groupId === undefined) {
      const run: Promise<void> = this.deliver(delivery, undefined).finally(() => this.ungrouped.delete(run));
      this.ungrouped.add(run);
      return;
    }
    const lane = this.lanes.get(groupId) ?? { running: undefined, waiting: [] };
    this.lanes.set(groupId, lane);
    if (lane.running && this.options.coalesce && lane.waiting.length > 0) return;
    lane.waiting.push(delivery);
    if (lane.running) return;
    lane.running = (async () => {
      for (let next = lane.waiting.shift(); next; next = this.closed ? undefined : lane.waiting.shift()) {
        await this.deliver(next, groupId);
      }
      lane.running = undefined;
      this.lanes.delete(groupId);
    })();
  }

  /** Handles one delivery; never throws (a failure schedules the next attempt). */
  private async deliver(delivery: Delivery<M>, groupId: string | undefined): Promise<void> {
    try {
      await this.handler?.(delivery.message);
    } catch (error) {
      const { name, maxAttempts = Number.POSITIVE_INFINITY, retryDelayMs = 1000 } = this.options;
      const fields = { queue: name, groupId, attempt: delivery.attempt, error: describe(error) };
      if (delivery.attempt >= maxAttempts) {
        this.options.logger.error('dropping a message that failed every attempt', fields);
        return;
      }
      this.options.logger.error('handling a message failed; it is delivered again shortly', fields);
      if (!this.closed) this.later({ ...delivery, attempt: delivery.attempt + 1 }, groupId, retryDelayMs);
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
