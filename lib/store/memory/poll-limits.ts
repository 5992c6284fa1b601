/** In-memory poll-time limits (lib/store/ports.ts PollLimitStore): one process's view. */
import { keyOf, memoryTables, type TableSource } from '../keyed.ts';
import type { PollLimitStore, SlotHolder } from '../ports.ts';

export class MemoryPollLimitStore implements PollLimitStore {
  /** Every slot held, by definition and task (what is stored); `slots` is built from it. */
  private readonly held;
  private readonly slots = new Map<string, Map<string, SlotHolder>>();
  private readonly windows;

  constructor(tables: TableSource = memoryTables) {
    this.held = tables.table<{ name: string; holder: SlotHolder }>('poll-slots');
    this.windows = tables.table<{ count: number; expiresAt: number }>('poll-windows');
    for (const { name, holder } of this.held.values()) {
      const held = this.slots.get(name) ?? new Map<string, SlotHolder>();
      held.set(holder.taskId, holder);
      this.slots.set(name, held);
    }
  }

  async acquire(name: string, limit: number, holder: SlotHolder): Promise<boolean> {
    const held = this.slots.get(name) ?? new Map<string, SlotHolder>();
    if (held.has(holder.taskId)) return true;
    if (held.size >= limit) return false;
    held.set(holder.taskId, { ...holder });
    this.slots.set(name, held);
    this.held.set(keyOf(name, holder.taskId), { name, holder: { ...holder } });
    return true;
  }

  async release(name: string, holder: SlotHolder): Promise<void> {
    const held = this.slots.get(name);
    if (held?.delete(holder.taskId)) this.held.delete(keyOf(name, holder.taskId));
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
