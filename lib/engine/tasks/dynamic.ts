/**
 * DYNAMIC (docs/conductor-compat.md §5.3): a worker task whose name comes from the input named by
 * `dynamicTaskNameParam`. It is created and queued as a task of that name (workers poll that name,
 * domains are those of that name); no name is a terminal error.
 */
import { dynamicSpec } from '../../model/task-types/dynamic.ts';
import type { TaskType } from '../task-type.ts';

export const dynamicTask: TaskType = {
  ...dynamicSpec,
  schedule(ctx, request) {
    const wt = request.workflowTask;
    const param = wt.dynamicTaskNameParam ?? '';
    const input = (ctx.resolve(wt.inputParameters ?? {}) ?? {}) as Record<string, unknown>;
    const name = input[param];
    if (typeof name !== 'string' || name.trim() === '') {
      const task = ctx.createTask(request, {
        status: 'FAILED_WITH_TERMINAL_ERROR',
        reasonForIncompletion: `Cannot map a dynamic task based on the parameter and input. Parameter= ${param}, input= ${JSON.stringify(input)}`,
        endTime: ctx.now,
      });
      return [task];
    }
    const delay = request.delaySeconds ?? wt.startDelay ?? 0;
    const task = ctx.createTask(
      { ...request, workflowTask: { ...wt, name } },
      { taskType: name, status: 'SCHEDULED', callbackAfterSeconds: delay, startDelayInSeconds: delay },
    );
    return [task];
  },
};
