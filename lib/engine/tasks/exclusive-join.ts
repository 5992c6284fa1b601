/**
 * EXCLUSIVE_JOIN (docs/conductor-compat.md §5.9): follows a SWITCH and waits for the one branch that
 * ran. It picks the first `joinOn` reference that exists and was not skipped (else the first of
 * `defaultExclusiveJoinTask`), and once that task is over completes with its output, or fails if it
 * failed. When none of them ran at all (a branch that joins nothing), it completes with no output.
 */
import { iterationRef } from '../../model/definition-graph.ts';
import { isSuccessfulTask, isTerminalTask, type TaskRecord } from '../../model/execution.ts';
import { exclusiveJoinSpec } from '../../model/task-types/exclusive-join.ts';
import type { DecideContext, TaskType } from '../task-type.ts';

export const exclusiveJoinTask: TaskType = {
  ...exclusiveJoinSpec,
  schedule(ctx, request) {
    const wt = request.workflowTask;
    const refs = (list: string[] | undefined) =>
      (list ?? []).map((ref) => iterationRef(ref, request.iteration));
    return [
      ctx.createTask(request, {
        status: 'IN_PROGRESS',
        startTime: ctx.now,
        inputData: { joinOn: refs(wt.joinOn), defaultExclusiveJoinTask: refs(wt.defaultExclusiveJoinTask) },
      }),
    ];
  },
  execute(ctx, task) {
    const joined = pick(ctx, refsOf(task, 'joinOn')) ?? pick(ctx, refsOf(task, 'defaultExclusiveJoinTask'));
    if (!joined) {
      ctx.setStatus(task, 'COMPLETED');
      return true;
    }
    if (!isTerminalTask(joined.status) || !joined.executed) return false;
    task.outputData = { ...joined.outputData };
    if (isSuccessfulTask(joined.status)) ctx.setStatus(task, 'COMPLETED');
    else
      ctx.setStatus(
        task,
        'FAILED',
        joined.reasonForIncompletion || `Task ${joined.referenceTaskName} ended with status ${joined.status}`,
      );
    return true;
  },
};

function refsOf(task: TaskRecord, key: string): string[] {
  const value = task.inputData[key];
  return Array.isArray(value) ? value.filter((ref): ref is string => typeof ref === 'string') : [];
}

function pick(ctx: DecideContext, refs: string[]): TaskRecord | undefined {
  for (const ref of refs) {
    const task = ctx.taskByRef(ref);
    if (task && task.status !== 'SKIPPED') return task;
  }
  return undefined;
}
