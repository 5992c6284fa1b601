/**
 * The decision queue of one test run: in-process, synchronous and private to the request. Decide
 * requests wait in a set (requests for a run coalesce, as on the real queue) until the simulation
 * drains them one at a time; wake-ups are remembered, never armed as timers, because simulated time
 * moves only when the simulation sets its clock to the next event. Nothing here is shared with the
 * host's queues, so no real consumer ever sees a test run.
 */
import type { Clock } from '../../model/clock.ts';
import type { DecisionQueue } from '../../queue/ports.ts';

export class SimulatedDecisionQueue implements DecisionQueue {
  private readonly pending = new Set<string>();
  private readonly wakeups = new Map<string, number>();
  /** Every run the engine asked about: the root, its children, a failure workflow. */
  readonly runs = new Set<string>();

  constructor(private readonly clock: Clock) {}

  async request(workflowId: string, delayMs = 0): Promise<void> {
    this.runs.add(workflowId);
    if (delayMs > 0) this.wakeups.set(workflowId, this.clock.now() + delayMs);
    else this.pending.add(workflowId);
  }

  /** A simulated decide reads every row: the request is a plain one. */
  requestForTasks(workflowId: string): Promise<void> {
    return this.request(workflowId);
  }

  async wakeAt(workflowId: string, at: number): Promise<void> {
    this.runs.add(workflowId);
    if (at > 0) this.wakeups.set(workflowId, at);
    else this.wakeups.delete(workflowId);
  }

  /** Decides run when the simulation drains them, never behind a caller's back. */
  settled(_workflowId: string): Promise<void> {
    return Promise.resolve();
  }

  /** The next decide to run, removed from the pending set; undefined when none is pending. */
  next(): string | undefined {
    const [first] = this.pending;
    if (first !== undefined) this.pending.delete(first);
    return first;
  }

  /** Moves every wake-up due at `now` to the pending decides (what the sweeper does for real). */
  releaseDue(now: number): void {
    for (const [workflowId, at] of this.wakeups) {
      if (at > now) continue;
      this.wakeups.delete(workflowId);
      this.pending.add(workflowId);
    }
  }

  /** The earliest armed wake-up, or undefined. */
  nextWakeup(): number | undefined {
    let soonest: number | undefined;
    for (const at of this.wakeups.values()) if (soonest === undefined || at < soonest) soonest = at;
    return soonest;
  }
}
