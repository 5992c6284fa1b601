/**
 * The work queue in process: delivers each message to the one registered handler. Messages of a
 * group are handled one at a time in send order (a keyed serial executor, as a FIFO message group
 * on SQS); messages without a group run at once. A message whose handler throws is delivered again
 * after a pause, as SQS does after its visibility timeout, up to maxAttempts; meanwhile it holds
 * back the rest of its group, as on a FIFO queue.
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

export interface LocalWorkQueueOptions<M> {
  name: string;
  type: WorkQueueType;
  logger: Logger;
  timers?: Timers;
  /**
   * A message sent to a group that already has one waiting is merged into it, `coalesce(waiting,
   * next)`: for messages that ask for work on a key ("decide this run"), where one pending request
   * covers any number more.
   */
  coalesce?(waiting: M, next: M): M;
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
  /** Messages after the one running, in send order. */
  waiting: Delivery<M>[];
  /** Its last message failed: the group waits for that message's next attempt, as on SQS FIFO. */
  paused: boolean;
  /** Messages taken into the lane, and of those, handled (settled()). */
  accepted: number;
  handled: number;
  /** settled() callers, each waiting until `handled` reaches its target. */
  settling: { target: number; resolve: () => void }[];
}

export class LocalWorkQueue<M> implements WorkQueue<M> {
  private handler: ((message: M) => Promise<void>) | undefined;
  private readonly lanes = new Map<string, Lane<M>>();
  private readonly ungrouped = new Set<Promise<void>>();
  private readonly pending = new Set<unknown>();
  private readonly timers: Timers;
  private closed = false;

  constructor(private readonly options: LocalWorkQueueOptions<M>) {
    this.timers = options.timers ?? realTimers;
  }

  /** The consumer; messages delivered before one is registered are handled by nobody. */
  register(handler: (message: M) => Promise<void>): void {
    this.handler = handler;
  }

  async send(message: M, options: SendOptions = {}): Promise<void> {
    checkSend(this.options.name, this.options.type, options);
    if (this.closed) return;
    const delivery = { message, attempt: 1 };
    const delayMs = options.delayMs ?? 0;
    if (delayMs > 0) this.after(delayMs, () => this.dispatch(delivery, options.groupId));
    else this.dispatch(delivery, options.groupId);
  }

  /** Whether a message is being handled now. */
  busy(): boolean {
    return this.ungrouped.size > 0 || [...this.lanes.values()].some((lane) => lane.running !== undefined);
  }

  /**
   * Resolves once every message of the group sent so far has been handled (a coalesced one by the
   * message that covers it), not waiting for later ones; at once while the group waits for a retry
   * (paused) or has nothing running.
   */
  settled(groupId: string): Promise<void> {
    const lane = this.lanes.get(groupId);
    if (!lane?.running || lane.handled >= lane.accepted) return Promise.resolve();
    const target = lane.accepted;
    return new Promise((resolve) => lane.settling.push({ target, resolve }));
  }

  /** Resolves when no message is being handled (delayed ones and paused groups aside). */
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

  /** Drops delayed messages and retries, stops taking new ones and waits for the running ones. */
  async close(): Promise<void> {
    this.closed = true;
    for (const handle of this.pending) this.timers.clear(handle);
    this.pending.clear();
    await this.idle();
  }

  private after(delayMs: number, fn: () => void): void {
    const handle = this.timers.set(() => {
      this.pending.delete(handle);
      if (!this.closed) fn();
    }, delayMs);
    this.pending.add(handle);
  }

  private dispatch(delivery: Delivery<M>, groupId: string | undefined): void {
    if (groupId === undefined) {
      const run: Promise<void> = (async () => {
        if (!(await this.attempt(delivery, undefined))) this.retryLater(delivery, undefined);
      })().finally(() => this.ungrouped.delete(run));
      this.ungrouped.add(run);
      return;
    }
    const lane = this.lanes.get(groupId) ?? {
      running: undefined,
      waiting: [],
      paused: false,
      accepted: 0,
      handled: 0,
      settling: [],
    };
    this.lanes.set(groupId, lane);
    const last = lane.waiting.at(-1);
    const merged = last && this.options.coalesce?.(last.message, delivery.message);
    if (last && merged !== undefined) {
      // The waiting message covers this one. If it waits for a retry, this request is that retry.
      last.message = merged;
      if (lane.paused && !lane.running) this.resume(lane, groupId);
      return;
    }
    lane.waiting.push(delivery);
    lane.accepted += 1;
    if (!lane.running && !lane.paused) this.run(lane, groupId);
  }

  private run(lane: Lane<M>, groupId: string): void {
    lane.running = (async () => {
      for (let next = lane.waiting.shift(); next; next = this.closed ? undefined : lane.waiting.shift()) {
        if ((await this.attempt(next, groupId)) || this.exhausted(next, groupId)) {
          lane.handled += 1;
          this.settle(lane, false);
          continue;
        }
        lane.waiting.unshift({ ...next, attempt: next.attempt + 1 });
        lane.paused = true;
        this.after(this.options.retryDelayMs ?? 1000, () => {
          if (lane.paused && !lane.running) this.resume(lane, groupId);
        });
        break;
      }
      lane.running = undefined;
      // Paused or drained: nobody waits for a retry or for nothing.
      this.settle(lane, true);
      if (lane.waiting.length === 0 && !lane.paused) this.lanes.delete(groupId);
    })();
  }

  private settle(lane: Lane<M>, all: boolean): void {
    const still = lane.settling.filter(({ target, resolve }) => {
      if (!all && lane.handled < target) return true;
      resolve();
      return false;
    });
    lane.settling = still;
  }

  private resume(lane: Lane<M>, groupId: string): void {
    lane.paused = false;
    this.run(lane, groupId);
  }

  private retryLater(delivery: Delivery<M>, groupId: string | undefined): void {
    if (this.exhausted(delivery, groupId) || this.closed) return;
    const retry = { ...delivery, attempt: delivery.attempt + 1 };
    this.after(this.options.retryDelayMs ?? 1000, () => this.dispatch(retry, groupId));
  }

  /** Whether a failed delivery was the last attempt (then the message is dropped, and said so). */
  private exhausted(delivery: Delivery<M>, groupId: string | undefined): boolean {
    if (delivery.attempt < (this.options.maxAttempts ?? Number.POSITIVE_INFINITY)) return false;
    this.options.logger.error('dropping a message that failed every attempt', {
      queue: this.options.name,
      groupId,
      attempts: delivery.attempt,
    });
    return true;
  }

  /** Handles one delivery; true when it succeeded. Never throws. */
  private async attempt(delivery: Delivery<M>, groupId: string | undefined): Promise<boolean> {
    try {
      await this.handler?.(delivery.message);
      return true;
    } catch (error) {
      this.options.logger.error('handling a message failed; it is delivered again shortly', {
        queue: this.options.name,
        groupId,
        attempt: delivery.attempt,
        error: error instanceof Error ? error.message : String(error),
      });
      return false;
    }
  }
}
