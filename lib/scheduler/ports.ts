/**
 * The scheduler's store port, in domain words: schedules (versioned, with the next run time
 * indexed while they are active), their execution records, and the scheduler's own switch (the
 * admin pause). Adapters: lib/scheduler/store/memory.ts, lib/scheduler/store/dynamodb.ts; one
 * contract suite (test/store/schedules.contract.ts) holds them to the same behaviour.
 */
import type { ScheduleExecution, ScheduleRecord } from './model.ts';

export interface SchedulerState {
  /** The admin pause: no tick dispatches and no fire starts anything while it is on. */
  paused: boolean;
}

export interface ScheduleStore {
  get(name: string): Promise<ScheduleRecord | undefined>;
  /**
   * Stores `record` (whose `rev` is the new version). `expectedRev` undefined: the schedule must
   * not exist yet; else the stored one must be at that version. VersionConflictError otherwise.
   */
  save(record: ScheduleRecord, expectedRev: number | undefined): Promise<void>;
  /** Removes a schedule; false when there was none. Its execution records stay. */
  delete(name: string): Promise<boolean>;
  /** Every schedule, by name. */
  list(): Promise<ScheduleRecord[]>;
  /**
   * Active schedules (not paused, with a next run time) whose nextRunTime is before `before`,
   * soonest first, at most `limit`. May lag a write by a moment (an index): callers write
   * conditionally on `rev`.
   */
  due(before: number, limit: number): Promise<ScheduleRecord[]>;

  /** Stores the execution unless one with its id exists; answers the existing one then. */
  claimExecution(execution: ScheduleExecution): Promise<ScheduleExecution | undefined>;
  /** Replaces an execution record (POLLED -> EXECUTED or FAILED). */
  putExecution(execution: ScheduleExecution): Promise<void>;
  getExecution(executionId: string): Promise<ScheduleExecution | undefined>;
  /** The newest execution records first (by scheduled time), at most `limit`. */
  recentExecutions(limit: number): Promise<ScheduleExecution[]>;

  state(): Promise<SchedulerState>;
  setState(state: SchedulerState): Promise<void>;
}

export interface SchedulerStores {
  schedules: ScheduleStore;
}
