/**
 * Async system tasks carried out off the deciding process. A type's `start` (HTTP) sends the task
 * to the system-task work queue and answers IN_PROGRESS; the consumer of that queue (lib/jobs/
 * system-tasks.ts on AWS, an in-process pool bounded by `service.http-task.concurrency` locally)
 * hands each message to SystemTaskRunner, which runs the type's `perform` on the stored task and
 * reports the answer the way the executor reports a `start`'s: a conditional write of the task
 * row (skipped when the task ended meanwhile), then a decide of the run. A message delivered twice
 * finds the task already over and does nothing.
 */

import type { Clock } from '../model/clock.ts';
import { errorMessage } from '../model/errors.ts';
import { isTerminalTask, isTerminalWorkflow, type TaskRecord } from '../model/execution.ts';
import { retryOnConflict } from '../model/retry-on-conflict.ts';
import type { DecisionQueue } from '../queue/ports.ts';
import type { SystemTaskMessage } from '../queue/work-queues.ts';
import type { RunStore, TaskRows } from '../store/ports.ts';
import type { TaskTypeRegistry } from './registry.ts';
import type { AsyncTaskResult } from './task-type.ts';

/** Writes an async task's result to its row, unless the task ended meanwhile (canceled). */
export async function reportAsyncResult(
  executions: TaskRows,
  clock: Clock,
  task: Pick<TaskRecord, 'workflowInstanceId' | 'taskId'>,
  result: AsyncTaskResult,
): Promise<void> {
  await retryOnConflict(async () => {
    const row = await executions.getTask(task.workflowInstanceId, task.taskId);
    if (!row || isTerminalTask(row.status)) return;
    const now = clock.now();
    await executions.updateTask(
      {
        ...row,
        status: result.status,
        outputData: result.outputData ?? row.outputData,
        reasonForIncompletion: result.reasonForIncompletion ?? row.reasonForIncompletion,
        startTime: row.startTime || now,
        endTime: isTerminalTask(result.status) ? now : 0,
        updateTime: now,
        rev: row.rev + 1,
      },
      row.rev,
    );
  });
}

export interface SystemTaskRunnerDeps {
  executions: RunStore & TaskRows;
  decisions: DecisionQueue;
  registry: TaskTypeRegistry;
  clock: Clock;
}

export class SystemTaskRunner {
  constructor(private readonly deps: SystemTaskRunnerDeps) {}

  async run(message: SystemTaskMessage): Promise<void> {
    const { executions, registry, clock, decisions } = this.deps;
    const task = await executions.getTask(message.workflowId, message.taskId);
    if (!task || isTerminalTask(task.status)) return;
    const perform = registry.get(task.workflowTask.type).perform;
    const run = await executions.getWorkflow(message.workflowId);
    if (!perform || !run || isTerminalWorkflow(run.status)) return;
    let result: AsyncTaskResult;
    try {
      result = await perform({ task, run, now: clock.now() });
    } catch (error) {
      result = { status: 'FAILED', reasonForIncompletion: errorMessage(error) };
    }
    await reportAsyncResult(executions, clock, task, result);
    await decisions.requestForTasks(message.workflowId, [message.taskId]);
  }
}
