/**
 * How long this process's own work held the event loop at most. A timer ticks every `tickMs`; a
 * tick that comes late was held up either by work on the loop or by the machine not running the
 * process at all (two loaded cores). Each late tick counts only the CPU the process burned during
 * its lateness, so a block by the code under test counts in full (its length stretched by a busy
 * machine counts only once), and a stall of the whole process counts nothing.
 */
export interface LoopWatch {
  /** Stops watching; the longest hold seen, in ms. */
  stop(): number;
}

export function watchLoop(tickMs = 10): LoopWatch {
  let wall = performance.now();
  let cpu = process.cpuUsage();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    const used = process.cpuUsage(cpu);
    const lateMs = now - wall - tickMs;
    if (lateMs > 0) longest = Math.max(longest, Math.min(lateMs, (used.user + used.system) / 1000));
    wall = now;
    cpu = process.cpuUsage();
  }, tickMs);
  return {
    stop() {
      clearInterval(timer);
      return longest;
    },
  };
}
