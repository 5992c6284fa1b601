/** In-memory poll-time limits (lib/store/ports.ts PollLimitStore): one process's view. */
import type { PollLimitStore, SlotHolder } from '../ports.ts';

export class MemoryPollLimitStore implements PollLimitStore {
  private readonly slots = new Map<string, Map<string, SlotHolder>>();
  private readonly windows = new Map<string, { count: number; expiresAt: number }>();

  async acquire(name: string, limit: number, holder: SlotHolder): Promise<boolean> {
    const held = this.slots.get(name) ?? new Map<string, SlotHolder>();
    if (held.has(holder.taskId)) return true;
    if (held.size >= limit) return false;
    held.set(holder.taskId, { ...holder });
    this.slots.set(name, held);
    return true;
  }

  async release(name: string, holder: SlotHolder): Promise<void> {
    const held = this.slots.get(name);
    held?.delete(holder.taskId);
    if (held?.size === 0) this.slots.delete(name);
  }

  async holders(name: string): Promise<SlotHolder[]> {
    return [...(this.slots.get(name)?.values() ?? [])].map((h) => ({ ...h }));
  }

  async countInWindow(name: string, windowStart: number, limit: number, expiresAt: number): Promise<boolean> {
    const key = `${name}\u0000${windowStart}`;
    const window = this.windows.get(key) ?? { count: 0, expiresAt };
    if (window.count >= limit) return false;
    window.count++;
    this.windows.set(key, window);
    // Old windows go as new ones open: the map holds only windows still running.
    for (const [k, w] of this.windows) if (w.expiresAt <= windowStart) this.windows.delete(k);
    return true;
  }
}
