/**
 * Retention of ended runs (`service.workflow.retention`, off by default): a decorator over the
 * execution store that stamps `expiresAt` (end time + retention) on every create or commit of an
 * ended run and clears it when a run is running again (retry, restart, rerun). The DynamoDB adapter
 * writes it as the item's `ttl`, so DynamoDB deletes the run item itself; since that happens up to
 * 48 h late (and dynalite never does), reads and search drop an expired run at once here: by id,
 * by correlation, by the index page (search lowers totalHits for each dropped row, §2.11) and task
 * search rows of an expired run. Cost: no extra write (the attribute rides on the commit that ends
 * the run), but for an expired run read while it still holds a wake-up, which is cleared then; task
 * rows of an expired run are not deleted by TTL (see README).
 *
 * Task log lines (`service.task.log-retention`, 30 days by default) are stamped the same way as
 * they are appended (append time + retention, written as `ttl`), and a read drops expired lines.
 */
import type { Clock } from '../model/clock.ts';
import { VersionConflictError } from '../model/errors.ts';
import { isTerminalWorkflow, type TaskRecord, type WorkflowRecord } from '../model/execution.ts';
import { decorate } from '../store/decorate.ts';
import type { ExecutionStore, TaskExecLog } from '../store/ports.ts';
import { rowsOfRuns } from '../store/run-rows.ts';

export interface Retention {
  /** Ended runs (`service.workflow.retention`); 0 keeps them. */
  runsMs: number;
  /** Task log lines (`service.task.log-retention`); 0 keeps them. */
  logsMs: number;
}

export function retainingExecutions(
  inner: ExecutionStore,
  retention: Retention,
  clock: Clock,
): ExecutionStore {
  const { runsMs: retentionMs, logsMs } = retention;
  if (retentionMs <= 0 && logsMs <= 0) return inner;
  const stampLog = (log: TaskExecLog): TaskExecLog =>
    logsMs > 0 ? { ...log, expiresAt: clock.now() + logsMs } : log;
  const liveLogs = (logs: TaskExecLog[]): TaskExecLog[] => {
    const now = clock.now();
    return logs
      .filter((log) => log.expiresAt === undefined || log.expiresAt > now)
      .map(({ expiresAt: _expiresAt, ...log }) => log);
  };
  const stamp = (record: WorkflowRecord): WorkflowRecord => {
    if (retentionMs <= 0) return record;
    if (!isTerminalWorkflow(record.status)) {
      if (record.expiresAt === undefined) return record;
      const { expiresAt: _cleared, ...running } = record;
      return running;
    }
    return { ...record, expiresAt: (record.endTime > 0 ? record.endTime : clock.now()) + retentionMs };
  };
  // Runs kept forever: run reads pass through as they are (no extra read for task rows).
  const keepRuns = retentionMs <= 0;
  const expired = (record: WorkflowRecord): boolean =>
    !keepRuns && record.expiresAt !== undefined && record.expiresAt <= clock.now();
  const live = (record: WorkflowRecord | undefined): record is WorkflowRecord =>
    record !== undefined && !expired(record);
  const liveTasks = async (tasks: TaskRecord[]): Promise<TaskRecord[]> => {
    if (keepRuns) return tasks;
    const ids = [...new Set(tasks.map((t) => t.workflowInstanceId))];
    // A row an earlier run under a reused id left is not the live run's either.
    return rowsOfRuns((await inner.getWorkflowsById(ids)).filter(live), tasks);
  };
  // An expired run still holding a wake-up (it expired before the decide that clears it came: a
  // terminate's, say) reads as gone, so no decide can clear it: cleared when it is read, or the
  // sweeper would find it due on every sweep until the TTL deletes it (never, on dynalite).
  const forgetWakeUp = async (record: WorkflowRecord): Promise<void> => {
    try {
      await inner.commitWorkflow({ ...record, wakeAt: 0, rev: record.rev + 1 }, record.rev);
    } catch (error) {
      if (!(error instanceof VersionConflictError)) throw error;
    }
  };
  return decorate<ExecutionStore>(inner, {
    createWorkflow: (record) => inner.createWorkflow(stamp(record)),
    commitWorkflow: (record, expectedRev) => inner.commitWorkflow(stamp(record), expectedRev),
    getWorkflow: async (workflowId) => {
      const record = await inner.getWorkflow(workflowId);
      if (record === undefined || !expired(record)) return record;
      if (record.wakeAt !== 0) await forgetWakeUp(record);
      return undefined;
    },
    findWorkflows: async (query) => (await inner.findWorkflows(query)).filter(live),
    getWorkflowsById: async (ids) => (await inner.getWorkflowsById(ids)).filter(live),
    scanTasks: async (ids) => liveTasks(await inner.scanTasks(ids)),
    tasksOfTypes: async (types) => liveTasks(await inner.tasksOfTypes(types)),
    appendLogs: (logs) => inner.appendLogs(logs.map(stampLog)),
    logs: async (taskId) => liveLogs(await inner.logs(taskId)),
  });
}
