/**
 * What one committed decide did, told as engine events (debug log lines: task scheduled, retried,
 * completed, failed, timed out, run ended) and as metrics (TasksCompleted / TasksFailed per task
 * type, DecideLatency). The executor gathers the little this needs (`observeDecide`) only while
 * debug logging or metrics are on, so a decide with both off pays nothing.
 */
import { debugEnabled, type Logger } from '../log/logger.ts';
import type { Metrics } from '../log/metrics.ts';
import {
  isTerminalTask,
  isTerminalWorkflow,
  type TaskRecord,
  type WorkflowRecord,
} from '../model/execution.ts';

export interface DecideObservation {
  /** Tasks no decide had acted on yet (neither `executed` nor `retried`): the ones whose end it may report. */
  open: Set<string>;
  wasEnded: boolean;
  startedAt: number;
}

export interface DecideEventSinks {
  logger: Logger;
  metrics: Metrics;
}

/** Whether decides are observed at all with these sinks (fixed for a logger's life). */
export const observing = (sinks: DecideEventSinks): boolean =>
  debugEnabled(sinks.logger) || sinks.metrics.enabled;

export function observeDecide(record: WorkflowRecord): DecideObservation {
  const open = new Set<string>();
  for (const task of record.tasks) if (!task.executed && !task.retried) open.add(task.taskId);
  return { open, wasEnded: isTerminalWorkflow(record.status), startedAt: performance.now() };
}

const FAILED = new Set(['FAILED', 'FAILED_WITH_TERMINAL_ERROR']);

function endEvent(status: string): string {
  if (status === 'COMPLETED' || status === 'COMPLETED_WITH_ERRORS') return 'task completed';
  if (FAILED.has(status)) return 'task failed';
  if (status === 'TIMED_OUT') return 'task timed out';
  return 'task ended';
}

/**
 * Reports a committed decide: `committed` the run it wrote, `changed` the task rows it wrote (a
 * retried task leaves the run record's index, so only they show its end) and `created` the new ones.
 */
export function reportDecide(
  sinks: DecideEventSinks,
  seen: DecideObservation,
  committed: WorkflowRecord,
  changed: readonly TaskRecord[],
  created: readonly TaskRecord[],
): void {
  const { logger, metrics } = sinks;
  const debug = debugEnabled(logger);
  const workflowId = committed.workflowId;
  // A decide that ends the run does not mark the tasks it ended on as acted on: they end with it.
  const endedNow = !seen.wasEnded && isTerminalWorkflow(committed.status);
  const reported = new Set<string>();
  for (const task of [...changed, ...committed.tasks]) {
    if (reported.has(task.taskId)) continue;
    reported.add(task.taskId);
    // Acted on by this decide: a task it moved past (executed) or replaced by a retry (retried).
    const actedOn = task.executed || task.retried || endedNow;
    if (!seen.open.has(task.taskId) || !actedOn || !isTerminalTask(task.status)) continue;
    if (debug) {
      logger.debug(endEvent(task.status), {
        workflowId,
        taskId: task.taskId,
        taskType: task.taskType,
        referenceTaskName: task.referenceTaskName,
        status: task.status,
      });
    }
    if (metrics.enabled) {
      if (task.status === 'COMPLETED')
        metrics.record('TasksCompleted', 1, 'Count', { TaskType: task.taskType });
      else if (FAILED.has(task.status) || task.status === 'TIMED_OUT')
        metrics.record('TasksFailed', 1, 'Count', { TaskType: task.taskType });
    }
  }
  if (debug) {
    for (const task of created) {
      logger.debug(task.retryCount > 0 ? 'task retried' : 'task scheduled', {
        workflowId,
        taskId: task.taskId,
        taskType: task.taskType,
        referenceTaskName: task.referenceTaskName,
        retryCount: task.retryCount,
      });
    }
    if (endedNow) {
      logger.debug('run ended', {
        workflowId,
        workflowName: committed.workflowName,
        status: committed.status,
      });
    }
  }
  if (metrics.enabled) metrics.record('DecideLatency', performance.now() - seen.startedAt, 'Milliseconds');
}
