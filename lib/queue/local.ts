/**
 * The local decision queue: decide requests go through an in-process FIFO work queue grouped by
 * run (the local `decisions` queue: one decide at a time per run, and requests that arrive while
 * one is pending coalesce into it); wake-ups are in-process timers over the stored wake-up times.
 * Those timers die with the process: after a restart the sweeper job's catch-up tick decides every
 * run with a stored wake-up, which re-arms them (lib/jobs/sweeper.ts).
 */
import type { Logger } from '../log/logger.ts';
import type { Clock } from '../model/clock.ts';
import { LocalWorkQueue } from './local-work-queue.ts';
import type { DecisionQueue } from './ports.ts';
import { type DecisionMessage, mergeDecisionMessages } from './work-queues.ts';

/** Decides the run; `taskIds`, when given, are the only rows that changed since its last decide. */
export type DecideFn = (workflowId: string, taskIds?: readonly string[]) => Promise<void>;

/** setTimeout's delay is a 32-bit int; longer waits are re-armed in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class LocalDecisionQueue implements DecisionQueue {
  private readonly decisions: LocalWorkQueue<DecisionMessage>;
  private readonly timers = new Map<string, { at: number; timer: NodeJS.Timeout }>();
  private closed = false;

  /**
   * `decisions`: the local `decisions` queue, whose consumer (the decider) the local consumer host
   * runs (lib/jobs/local-consumers.ts); without it, a queue of its own that bind() feeds.
   */
  constructor(
    private readonly clock: Clock,
    logger: Logger,
    decisions?: LocalWorkQueue<DecisionMessage>,
  ) {
    // A failed decide is tried again a second later, for as long as it takes: a failed decide must
    // not leave the run stuck (SQS would move it to the DLQ; here nobody would look).
    this.decisions =
      decisions ??
      new LocalWorkQueue({
        name: 'decisions',
        type: 'fifo',
        logger,
        coalesce: mergeDecisionMessages,
      });
  }

  /** Feeds the decides to `fn` (when no consumer host runs the decider). */
  bind(fn: DecideFn): void {
    this.decisions.register((message) => fn(message.workflowId, message.taskIds));
  }

  async request(workflowId: string, delayMs = 0): Promise<void> {
    if (this.closed) return;
    if (delayMs > 0) {
      this.arm(workflowId, this.clock.now() + delayMs);
      return;
    }
    await this.decisions.send({ workflowId }, { groupId: workflowId });
  }

  async requestForTasks(workflowId: string, taskIds: readonly string[]): Promise<void> {
    if (this.closed) return;
    await this.decisions.send({ workflowId, taskIds }, { groupId: workflowId });
  }

  /**
   * Arms even a wake-up the run kept (`_keptSince`): an in-process timer costs nothing, and the
   * one armed when it was stored may have died with an earlier process.
   */
  async wakeAt(workflowId: string, at: number, _keptSince?: number): Promise<void> {
    this.arm(workflowId, at);
  }

  private arm(workflowId: string, at: number): void {
    const existing = this.timers.get(workflowId);
    if (existing && existing.at === at) return;
    if (existing) clearTimeout(existing.timer);
    if (at <= 0 || this.closed) {
      this.timers.delete(workflowId);
      return;
    }
    const delay = Math.min(Math.max(0, at - this.clock.now()), MAX_TIMER_MS);
    const timer = setTimeout(() => {
      this.timers.delete(workflowId);
      if (at > this.clock.now() + 5) this.arm(workflowId, at);
      else void this.request(workflowId);
    }, delay);
    timer.unref();
    this.timers.set(workflowId, { at, timer });
  }

  settled(workflowId: string): Promise<void> {
    return this.decisions.settled(workflowId);
  }

  /** Whether a decide is running now. */
  busy(): boolean {
    return this.decisions.busy();
  }

  idle(): Promise<void> {
    return this.decisions.idle();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const { timer } of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    await this.decisions.close();
  }
}
