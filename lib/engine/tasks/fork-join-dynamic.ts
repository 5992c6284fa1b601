/**
 * FORK_JOIN_DYNAMIC (docs/conductor-compat.md §5.8): branches given at run time, one task each (a
 * SWITCH, DECISION or DO_WHILE brings the tasks inside it), and the JOIN that must follow, whose
 * `joinOn` becomes the branch references. In one scheduling step:
 * the `FORK` marker (COMPLETED, input `forkedTasks`), every branch task, then the JOIN. A branch's
 * input is its own inputParameters resolved with the map the fork gives it merged over them (its
 * keys win), as Conductor's mapper `putAll`s it; a retried branch gets the map again (forkedInput).
 * Branch lists (dynamic-fork-branches.ts) come from `forkTaskInputs` (+ `forkTaskName` / `forkTaskType` /
 * `forkTaskWorkflow`), from `dynamicForkTasksParam` + `dynamicForkTasksInputParamName`, or from the
 * legacy `dynamicForkJoinTasksParam`. A payload that is not what it must be (duplicate references,
 * a non-map input) fails the marker terminally, which fails the run.
 */
import { graphOf } from '../../model/definition-graph.ts';
import type { TaskRecord } from '../../model/execution.ts';
import { forkJoinDynamicSpec } from '../../model/task-types/fork-join-dynamic.ts';
import type { TaskType } from '../task-type.ts';
import { dynamicBranches } from './dynamic-fork-branches.ts';
import { FORK_WITHOUT_JOIN } from './fork-join.ts';

export const forkJoinDynamicTask: TaskType = {
  ...forkJoinDynamicSpec,
  async schedule(ctx, request) {
    const wt = request.workflowTask;
    const node = ctx.graph.node(wt.taskReferenceName);
    const join = node?.list[node.index + 1];
    const failed = (reason: string): TaskRecord[] => [
      ctx.createTask(request, {
        taskType: 'FORK',
        status: 'FAILED_WITH_TERMINAL_ERROR',
        reasonForIncompletion: reason,
        startTime: ctx.now,
        endTime: ctx.now,
      }),
    ];
    if (join?.type !== 'JOIN') return failed(FORK_WITHOUT_JOIN);
    const marker = ctx.createTask(request, {
      taskType: 'FORK',
      status: 'COMPLETED',
      startTime: ctx.now,
      endTime: ctx.now,
    });
    const branches = dynamicBranches(wt, marker.inputData, ctx.graph);
    if (typeof branches === 'string') return failed(branches);
    const refs = branches.map((b) => b.workflowTask.taskReferenceName);
    marker.inputData = { ...marker.inputData, forkedTasks: refs };
    for (const branch of branches) {
      // A SWITCH or DO_WHILE branch: what runs inside it follows on through the decide's graph.
      ctx.placeForked(branch.workflowTask);
      await ctx.schedule({
        workflowTask: branch.workflowTask,
        iteration: request.iteration,
        parentTaskId: marker.taskId,
        givenInput: branch.input,
      });
    }
    await ctx.schedule({
      workflowTask: { ...join, joinOn: refs },
      iteration: request.iteration,
      parentTaskId: request.parentTaskId,
    });
    return [marker];
  },
  // The marker scheduled its branches and the JOIN itself; what follows the fork follows the JOIN.
  next: () => [],
  forkedInput(fork, ref, def) {
    const branches = dynamicBranches(fork.workflowTask, fork.inputData, graphOf(def));
    if (typeof branches === 'string') return undefined;
    return branches.find((b) => b.workflowTask.taskReferenceName === ref)?.input;
  },
};
