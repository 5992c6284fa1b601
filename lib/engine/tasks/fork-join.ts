/**
 * FORK_JOIN (docs/conductor-compat.md §5.7): in one scheduling step, a `FORK` marker task (created
 * COMPLETED, input = the resolved inputParameters), the first task of every branch, and the JOIN
 * that must directly follow the FORK_JOIN in its list. Each branch then runs on its own; the end of
 * a branch schedules nothing (model/definition-graph.ts), and the JOIN decides when the fork is over.
 */
import type { TaskRecord } from '../../model/execution.ts';
import { forkJoinSpec } from '../../model/task-types/fork-join.ts';
import type { TaskType } from '../task-type.ts';

/** Conductor's own wording (ForkJoinTaskMapper), so clients matching on it keep working. */
export const FORK_WITHOUT_JOIN = 'Fork task definition is not followed by a join task';

export const forkJoinTask: TaskType = {
  ...forkJoinSpec,
  async schedule(ctx, request) {
    const wt = request.workflowTask;
    const node = ctx.graph.node(wt.taskReferenceName);
    const join = node?.list[node.index + 1];
    if (join?.type !== 'JOIN') {
      // Nothing of the fork is started: the marker fails terminally and the decider fails the run.
      const failed = ctx.createTask(request, {
        taskType: 'FORK',
        status: 'FAILED_WITH_TERMINAL_ERROR',
        reasonForIncompletion: FORK_WITHOUT_JOIN,
        startTime: ctx.now,
        endTime: ctx.now,
      });
      return [failed];
    }
    const marker: TaskRecord = ctx.createTask(request, {
      taskType: 'FORK',
      status: 'COMPLETED',
      startTime: ctx.now,
      endTime: ctx.now,
    });
    for (const branch of wt.forkTasks ?? []) {
      const first = branch[0];
      if (!first) continue;
      await ctx.schedule({ workflowTask: first, iteration: request.iteration, parentTaskId: marker.taskId });
    }
    await ctx.schedule({
      workflowTask: join,
      iteration: request.iteration,
      parentTaskId: request.parentTaskId,
    });
    return [marker];
  },
  // The marker scheduled its branches and the JOIN itself; what follows the fork follows the JOIN.
  next: () => [],
};
