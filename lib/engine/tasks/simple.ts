/**
 * SIMPLE (worker) tasks (docs/conductor-compat.md §5.2): created SCHEDULED and queued for workers of
 * their task type; completed only by worker updates. `startDelay` delays the first poll.
 */
import { workerSpec } from '../../model/task-types/spec.ts';
import type { TaskType } from '../task-type.ts';

export function workerTaskType(type: string): TaskType {
  return {
    ...workerSpec(type),
    schedule(ctx, request) {
      const delay = request.delaySeconds ?? request.workflowTask.startDelay ?? 0;
      const task = ctx.createTask(request, {
        taskType: type === 'SIMPLE' ? request.workflowTask.name : type,
        status: 'SCHEDULED',
        callbackAfterSeconds: delay,
        startDelayInSeconds: delay,
      });
      return [task];
    },
  };
}

export const simpleTask: TaskType = workerTaskType('SIMPLE');
