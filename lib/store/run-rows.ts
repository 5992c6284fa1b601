/**
 * The task rows of one run. A run's partition may also hold rows an earlier run under the same id
 * left behind (ids an idempotency key or an event derives come back, and DynamoDB TTL removes an
 * expired run's record before the cleaner removes its rows): they are not this run's (ids.ts isRowOf).
 */
import type { TaskRecord, WorkflowRecord } from '../model/execution.ts';
import { isRowOf, type RunIdentity } from '../model/ids.ts';
import type { TaskRows } from './ports.ts';

/** Every task row of the run, by seq, without rows an earlier run under its id left. */
export async function rowsOfRun(
  executions: Pick<TaskRows, 'listTasks'>,
  run: RunIdentity,
): Promise<TaskRecord[]> {
  return (await executions.listTasks(run.workflowId)).filter((row) => isRowOf(run, row));
}

/** The rows, in order, that are rows of one of the runs given (not of a run gone, nor an earlier run under its id). */
export function rowsOfRuns(runs: readonly WorkflowRecord[], rows: readonly TaskRecord[]): TaskRecord[] {
  const byId = new Map(runs.map((run) => [run.workflowId, run]));
  return rows.filter((row) => {
    const run = byId.get(row.workflowInstanceId);
    return run !== undefined && isRowOf(run, row);
  });
}

/**
 * The order of a run's rows: by seq; rows with the same seq (a decide that adopts a row it wrote
 * before a concurrent operation committed, such as a skip, keeps that row's seq) by scheduled
 * time, then task id, so every store lists them alike.
 */
export const byRunOrder = (a: TaskRecord, b: TaskRecord): number =>
  a.seq - b.seq ||
  a.scheduledTime - b.scheduledTime ||
  (a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : 0);
