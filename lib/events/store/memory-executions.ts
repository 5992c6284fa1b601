/** In-memory event executions; each check-and-set has no await between check and write. */

import { memoryTables, type TableSource } from '../../store/keyed.ts';
import type { EventExecution } from '../model.ts';
import type { ClaimOutcome, EventExecutionStore } from '../ports.ts';

interface Stored {
  execution: EventExecution;
  leaseUntil: number;
  expiresAt: number;
}

export class MemoryEventExecutionStore implements EventExecutionStore {
  private readonly records;

  constructor(tables: TableSource = memoryTables) {
    this.records = tables.table<Stored>('event-executions');
  }

  async claim(
    execution: EventExecution,
    leaseUntil: number,
    expiresAt: number,
    now: number,
  ): Promise<ClaimOutcome> {
    const stored = this.records.get(execution.id);
    const live = stored && stored.expiresAt > now ? stored : undefined;
    if (live && !(live.execution.status === 'IN_PROGRESS' && live.leaseUntil < now))
      return { claimed: false, existing: structuredClone(live.execution) };
    this.records.set(execution.id, { execution: structuredClone(execution), leaseUntil, expiresAt });
    return { claimed: true };
  }

  async finish(execution: EventExecution, expiresAt: number): Promise<void> {
    this.records.set(execution.id, { execution: structuredClone(execution), leaseUntil: 0, expiresAt });
  }

  async list(
    name: string,
    now: number,
    options: { from?: number; limit: number },
  ): Promise<EventExecution[]> {
    return [...this.records.values()]
      .filter(
        (r) => r.execution.name === name && r.expiresAt > now && r.execution.created >= (options.from ?? 0),
      )
      .map((r) => structuredClone(r.execution))
      .sort((a, b) => b.created - a.created || a.id.localeCompare(b.id))
      .slice(0, options.limit);
  }
}
