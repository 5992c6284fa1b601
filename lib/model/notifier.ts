/**
 * Change notifications by key: how a request that waits (a worker's long poll on its queue, a
 * synchronous execute on its run) learns that what it waits on moved, without a polling loop of
 * its own. A writer publishes the key it changed once the write is stored; a waiter watches keys
 * and looks again only when one was published.
 *
 * Publishing is in-process: it reaches the waiters of the process that made the write. Where other
 * processes write too (other Lambda instances on AWS), a re-read policy also wakes a waiter with
 * nothing published: first after `initialMs`, then at growing intervals up to `maxMs` while nothing
 * is published, so an idle waiter costs a bounded number of reads per second (1000 / maxMs once
 * backed off) and a busy one is still answered within `initialMs` of the write.
 */

export interface Notifier {
  /**
   * Tells the watches of a key that it changed. `wakeAtMost` bounds how many of those *waiting*
   * (in `next`) are woken, oldest watch first: a queue push of n entries is worth n polls, and the
   * other waiters would only look, find the entries taken, and wait again. A watch busy at the
   * moment (between two `next`s: looking at what it watches) is always told, so that none misses
   * a change that came while it looked. All waiting watches are woken when absent.
   */
  publish(key: string, wakeAtMost?: number): void;
  /** Starts watching keys: a change published from now on wakes the watch's `next`. */
  watch(keys: readonly string[]): Watch;
}

/** Why a wait ended: a published change, the time given, or a re-read tick (other writers). */
export type WakeReason = 'changed' | 'timeout' | 'reread';

export interface Watch {
  /** Watches one more key. */
  add(key: string): void;
  /**
   * Resolves once a watched key changed since the previous call (at once if it already did), or
   * after `timeoutMs`, or at the next re-read tick, whichever comes first; says which.
   */
  next(timeoutMs: number): Promise<WakeReason>;
  close(): void;
}

/** Re-reads with back-off: `initialMs`, then each interval `factor` times the last, up to `maxMs`. */
export interface RereadPolicy {
  initialMs: number;
  maxMs?: number;
  /** Growth per re-read with nothing published (default 2; 1 keeps a fixed interval). */
  factor?: number;
}

/** The in-process notifier: publishes reach the watches of this process. */
export class LocalNotifier implements Notifier {
  private readonly watches = new Map<string, Set<KeyWatch>>();

  constructor(private readonly reread?: RereadPolicy) {}

  publish(key: string, wakeAtMost = Number.POSITIVE_INFINITY): void {
    const set = this.watches.get(key);
    if (!set) return;
    let woken = 0;
    for (const watch of set) {
      if (!watch.waiting) watch.changed();
      else if (woken < wakeAtMost) {
        woken++;
        watch.changed();
      }
    }
  }

  watch(keys: readonly string[]): Watch {
    const watch = new KeyWatch(this, this.reread);
    for (const key of keys) watch.add(key);
    return watch;
  }

  /** @internal */
  subscribe(key: string, watch: KeyWatch): void {
    let set = this.watches.get(key);
    if (!set) {
      set = new Set();
      this.watches.set(key, set);
    }
    set.add(watch);
  }

  /** @internal */
  unsubscribe(key: string, watch: KeyWatch): void {
    const set = this.watches.get(key);
    if (!set) return;
    set.delete(watch);
    if (set.size === 0) this.watches.delete(key);
  }
}

class KeyWatch implements Watch {
  private readonly keys = new Set<string>();
  /** A change arrived that no `next` has reported yet. */
  private dirty = false;
  private wake: (() => void) | undefined;
  /** The next re-read interval (grows while re-reads find nothing published). */
  private rereadMs: number | undefined;

  constructor(
    private readonly owner: LocalNotifier,
    private readonly reread: RereadPolicy | undefined,
  ) {
    this.rereadMs = reread?.initialMs;
  }

  add(key: string): void {
    if (this.keys.has(key)) return;
    this.keys.add(key);
    this.owner.subscribe(key, this);
  }

  changed(): void {
    this.dirty = true;
    this.wake?.();
  }

  /** In `next`, waiting for a change (not looking at what it watches). */
  get waiting(): boolean {
    return this.wake !== undefined;
  }

  next(timeoutMs: number): Promise<WakeReason> {
    if (this.dirty) {
      this.dirty = false;
      this.rereadMs = this.reread?.initialMs;
      return Promise.resolve('changed');
    }
    if (timeoutMs <= 0) return Promise.resolve('timeout');
    const interval = this.rereadMs;
    const reread = interval !== undefined && interval < timeoutMs;
    return new Promise((resolve) => {
      const finish = (reason: WakeReason) => {
        clearTimeout(timer);
        this.wake = undefined;
        this.dirty = false;
        this.backOff(reason);
        resolve(reason);
      };
      const timer = setTimeout(() => finish(reread ? 'reread' : 'timeout'), reread ? interval : timeoutMs);
      this.wake = () => finish('changed');
    });
  }

  private backOff(reason: WakeReason): void {
    const policy = this.reread;
    if (!policy || this.rereadMs === undefined) return;
    if (reason === 'changed') this.rereadMs = policy.initialMs;
    else if (reason === 'reread')
      this.rereadMs = Math.min(policy.maxMs ?? policy.initialMs, this.rereadMs * (policy.factor ?? 2));
  }

  close(): void {
    for (const key of this.keys) this.owner.unsubscribe(key, this);
    this.keys.clear();
    this.wake?.();
  }
}
