/**
 * A Conductor system type this service does not carry out (lib/model/task-types/unsupported.ts).
 * The task fails at once, terminally (never retried, never queued for a worker), with a reason
 * naming the type; the run then fails as for any failed task (or goes on, for an optional one).
 */
import type { TaskTypeSpec } from '../../model/task-types/spec.ts';
import type { TaskType } from '../task-type.ts';

export function unsupportedTaskType(spec: TaskTypeSpec): TaskType {
  return {
    ...spec,
    schedule(ctx, request) {
      const task = ctx.createTask(request, {
        status: 'FAILED_WITH_TERMINAL_ERROR',
        reasonForIncompletion: `Task type ${spec.type} is not supported by this service`,
        endTime: ctx.now,
      });
      return [task];
    },
  };
}
