/** NOOP (docs/conductor-compat.md §5.22): a sync task that completes as soon as it is scheduled. */
import { noopSpec } from '../../model/task-types/noop.ts';
import type { TaskType } from '../task-type.ts';

export const noopTask: TaskType = {
  ...noopSpec,
  schedule(ctx, request) {
    return [ctx.createTask(request, { status: 'COMPLETED', startTime: ctx.now, endTime: ctx.now })];
  },
};
