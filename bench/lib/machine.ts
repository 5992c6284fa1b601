/**
 * How busy the whole machine was (Linux /proc/stat), so a run can say how much CPU other processes
 * took from it: on a shared 2-core machine that changes throughput figures a lot.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';

/** Busy (non-idle, non-iowait) CPU time of all cores since boot, in ms; undefined off Linux. */
export function machineBusyMs(): number | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    // cpu  user nice system idle iowait irq softirq steal ... (USER_HZ = 100 ticks per second)
    const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
    const ticks = [user, nice, system, irq, softirq, steal].reduce<number>((sum, v) => sum + (v ?? 0), 0);
    return ticks * 10;
  } catch {
    return undefined;
  }
}

export const loadAverage = (): string =>
  loadavg()
    .map((v) => v.toFixed(2))
    .join(' / ');
