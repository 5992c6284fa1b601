/** The scheduler's store in memory (tests and `service.store=memory`): copies in, copies out. */
import { VersionConflictError } from '../../model/errors.ts';
import { memoryTables, type TableSource } from '../../store/keyed.ts';
import type { ScheduleExecution, ScheduleRecord } from '../model.ts';
import type { SchedulerState, ScheduleStore } from '../ports.ts';

const copy = <T>(value: T): T => structuredClone(value);

const STATE = 'state';

export class MemoryScheduleStore implements ScheduleStore {
  private readonly schedules;
  private readonly executions;
  /** The scheduler's one state row, under STATE. */
  private readonly states;

  constructor(tables: TableSource = memoryTables) {
    this.schedules = tables.table<ScheduleRecord>('schedules');
    this.executions = tables.table<ScheduleExecution>('schedule-executions');
    this.states = tables.table<SchedulerState>('scheduler-state');
  }

  async get(name: string): Promise<ScheduleRecord | undefined> {
    const found = this.schedules.get(name);
    return found && copy(found);
  }

  async save(record: ScheduleRecord, expectedRev: number | undefined): Promise<void> {
    const existing = this.schedules.get(record.name);
    if (expectedRev === undefined ? existing !== undefined : existing?.rev !== expectedRev) {
      throw new VersionConflictError(`Schedule '${record.name}' was changed concurrently`);
    }
    this.schedules.set(record.name, copy(record));
  }

  async delete(name: string): Promise<boolean> {
    return this.schedules.delete(name);
  }

  async list(): Promise<ScheduleRecord[]> {
    return [...this.schedules.values()]
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map(copy);
  }

  async due(before: number, limit: number): Promise<ScheduleRecord[]> {
    return [...this.schedules.values()]
      .filter((s) => !s.paused && s.nextDispatchTime !== undefined && s.nextDispatchTime < before)
      .sort((a, b) => (a.nextDispatchTime ?? 0) - (b.nextDispatchTime ?? 0))
      .slice(0, limit)
      .map(copy);
  }

  async claimExecution(execution: ScheduleExecution): Promise<ScheduleExecution | undefined> {
    const existing = this.executions.get(execution.executionId);
    if (existing) return copy(existing);
    this.executions.set(execution.executionId, copy(execution));
    return undefined;
  }

  async putExecution(execution: ScheduleExecution): Promise<void> {
    this.executions.set(execution.executionId, copy(execution));
  }

  async getExecution(executionId: string): Promise<ScheduleExecution | undefined> {
    const found = this.executions.get(executionId);
    return found && copy(found);
  }

  async recentExecutions(limit: number): Promise<ScheduleExecution[]> {
    return [...this.executions.values()]
      .sort((a, b) => b.scheduledTime - a.scheduledTime || (a.executionId < b.executionId ? 1 : -1))
      .slice(0, limit)
      .map(copy);
  }

  async state(): Promise<SchedulerState> {
    return { ...(this.states.get(STATE) ?? { paused: false }) };
  }

  async setState(state: SchedulerState): Promise<void> {
    this.states.set(STATE, { ...state });
  }
}
