/** Timers for the local work queue that fire only when a test moves its manual clock. */

import type { ManualClock } from '../../lib/model/clock.ts';
import type { Timers } from '../../lib/queue/local-work-queue.ts';

interface Entry {
  id: number;
  at: number;
  fn: () => void;
}

export class ManualTimers implements Timers {
  private entries: Entry[] = [];
  private nextId = 0;

  constructor(private readonly clock: ManualClock) {}

  set(fn: () => void, delayMs: number): unknown {
    const id = ++this.nextId;
    this.entries.push({ id, at: this.clock.now() + delayMs, fn });
    return id;
  }

  clear(handle: unknown): void {
    this.entries = this.entries.filter((entry) => entry.id !== handle);
  }

  /** Fires every timer due by the clock's time, earliest first; false when none was due. */
  fireDue(): boolean {
    const due = this.entries
      .filter((entry) => entry.at <= this.clock.now())
      .sort((a, b) => a.at - b.at || a.id - b.id);
    this.entries = this.entries.filter((entry) => !due.includes(entry));
    for (const entry of due) entry.fn();
    return due.length > 0;
  }
}
