/**
 * The local decision queue: decides run one at a time per workflow (a keyed serial executor);
 * requests that arrive while one is pending coalesce into it; wake-ups are in-process timers over
 * the stored wake-up times, restored after a restart by the host.
 */
import type { Logger } from '../log/logger.ts';
import type { Clock } from '../model/clock.ts';
import type { DecisionQueue } from './ports.ts';

export type DecideFn = (workflowId: string) => Promise<void>;

interface Lane {
  running: Promise<void> | undefined;
  /** Another decide is wanted after the running one. */
  again: boolean;
}

/** setTimeout's delay is a 32-bit int; longer waits are re-armed in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class LocalDecisionQueue implements DecisionQueue {
  private readonly lanes = new Map<string, Lane>();
  private readonly timers = new Map<string, { at: number; timer: NodeJS.Timeout }>();
  private decideFn: DecideFn | undefined;
  private closed = false;

  constructor(
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  bind(fn: DecideFn): void {
    this.decideFn = fn;
  }

  async request(workflowId: string, delayMs = 0): Promise<void> {
    if (this.closed) return;
    if (delayMs > 0) {
      this.arm(workflowId, this.clock.now() + delayMs);
      return;
    }
    const lane = this.lanes.get(workflowId);
    if (lane?.running) {
      lane.again = true;
      return;
    }
    this.start(workflowId);
  }

  async wakeAt(workflowId: string, at: number): Promise<void> {
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

  /** Resolves when no decide is running or pending. */
  async idle(): Promise<void> {
    while (true) {
      const running = [...this.lanes.values()]
        .map((l) => l.running)
        .filter((p): p is Promise<void> => p !== undefined);
      if (running.length === 0) return;
      await Promise.allSettled(running);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const { timer } of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    await this.idle();
  }

  private start(workflowId: string): void {
    const lane: Lane = this.lanes.get(workflowId) ?? { running: undefined, again: false };
    this.lanes.set(workflowId, lane);
    lane.running = (async () => {
      do {
        lane.again = false;
        try {
          await this.decideFn?.(workflowId);
        } catch (error) {
          this.logger.error('decide failed', {
            workflowId,
            error: error instanceof Error ? error.message : String(error),
          });
          // Try again shortly: a failed decide must not leave the run stuck.
          this.arm(workflowId, this.clock.now() + 1000);
        }
      } while (lane.again && !this.closed);
      lane.running = undefined;
      this.lanes.delete(workflowId);
    })();
  }
}
