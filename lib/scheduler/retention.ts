/**
 * Retention of schedule execution records (`service.scheduler.execution-retention`, 30 days by
 * default): a decorator over the schedule store that stamps each record with `expiresAt`
 * (scheduled time + retention), which the DynamoDB adapter writes as the item's `ttl`, and hides
 * expired records from every read (DynamoDB deletes up to 48 h late; dynalite and the memory store
 * never do). A fire that comes after its record expired is one for a time that long passed.
 */
import type { Clock } from '../model/clock.ts';
import type { ScheduleExecution } from './model.ts';
import type { ScheduleStore } from './ports.ts';

export function retainingScheduleExecutions(
  inner: ScheduleStore,
  retentionMs: number,
  clock: Clock,
): ScheduleStore {
  if (retentionMs <= 0) return inner;
  const stamp = (execution: ScheduleExecution): ScheduleExecution => ({
    ...execution,
    expiresAt: execution.scheduledTime + retentionMs,
  });
  const strip = (execution: ScheduleExecution | undefined): ScheduleExecution | undefined => {
    if (execution === undefined) return undefined;
    const { expiresAt: _expiresAt, ...shown } = execution;
    return shown;
  };
  const live = (execution: ScheduleExecution | undefined): ScheduleExecution | undefined =>
    execution?.expiresAt !== undefined && execution.expiresAt <= clock.now() ? undefined : strip(execution);
  return {
    get: (name) => inner.get(name),
    save: (record, expectedRev) => inner.save(record, expectedRev),
    delete: (name) => inner.delete(name),
    list: () => inner.list(),
    due: (before, limit) => inner.due(before, limit),
    // The record that holds the claim, expired or not: hiding it would let the fire happen twice.
    claimExecution: async (execution) => strip(await inner.claimExecution(stamp(execution))),
    putExecution: (execution) => inner.putExecution(stamp(execution)),
    getExecution: async (executionId) => live(await inner.getExecution(executionId)),
    // Expired records are the oldest: they are dropped from the end of the newest-first list.
    recentExecutions: async (limit) =>
      (await inner.recentExecutions(limit)).map(live).filter((e): e is ScheduleExecution => e !== undefined),
    state: () => inner.state(),
    setState: (state) => inner.setState(state),
  };
}
