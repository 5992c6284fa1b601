/**
 * The harness's clock: real time plus an offset a test moves forward. SQS delays and visibility
 * timeouts and EventBridge schedules run on it, so a test can pass a six-minute visibility timeout
 * or a one-minute rule at once. The functions' processes keep the same time (bootstrap.mjs moves
 * their Date by the same offset), so every part agrees on what time it is, as on AWS.
 */
export class HarnessClock {
  private offset = 0;
  private readonly listeners = new Set<() => void>();

  now(): number {
    return Date.now() + this.offset;
  }

  /** How far the clock is ahead of real time (the functions' processes are told it). */
  get ahead(): number {
    return this.offset;
  }

  /** Moves time forward; whatever waits for it is told (timers are set again from the new time). */
  advance(ms: number): void {
    if (ms < 0) throw new Error('The harness clock only moves forward');
    this.offset += ms;
    for (const listener of this.listeners) listener();
  }

  onAdvance(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/**
 * A timer on the harness clock: runs `fire` when the clock reaches `at`, whether real time gets
 * there or the clock is moved past it. Setting it again replaces the earlier time.
 */
export class ClockTimer {
  private timer: NodeJS.Timeout | undefined;
  private at: number | undefined;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly clock: HarnessClock,
    private readonly fire: () => void,
  ) {
    this.unsubscribe = clock.onAdvance(() => this.arm());
  }

  set(at: number | undefined): void {
    this.at = at;
    this.arm();
  }

  close(): void {
    clearTimeout(this.timer);
    this.unsubscribe();
  }

  private arm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.at === undefined) return;
    const wait = Math.max(0, this.at - this.clock.now());
    this.timer = setTimeout(() => {
      this.at = undefined;
      this.fire();
    }, wait);
  }
}
