/**
 * WAIT (docs/conductor-compat.md §5.12), and the other tasks that block until something outside the
 * engine completes them: HUMAN (§5.13) and Orkes' YIELD. All are created IN_PROGRESS and are the
 * targets of the signal routes (§1.1).
 *
 * A WAIT with `duration` or `until` completes by itself at its deadline. The deadline is stored on
 * the task (`waitTimeout`) and reported through `wakeAt`, so it becomes the run's stored wake-up
 * time and the decider runs at the deadline even across a restart. A WAIT with neither input, a
 * HUMAN and a YIELD wait until completed through the task API (update, update by ref, signal).
 */
import { errorMessage } from '../../model/errors.ts';
import type { TaskTypeSpec } from '../../model/task-types/spec.ts';
import { humanSpec, waitSpec, yieldSpec } from '../../model/task-types/wait.ts';
import { parseDuration, parseUntil } from '../duration.ts';
import type { DecideContext, ScheduleRequest, TaskType } from '../task-type.ts';

export const waitTask: TaskType = {
  ...waitSpec,
  schedule(ctx, request) {
    const task = ctx.createTask(request, { status: 'IN_PROGRESS', startTime: ctx.now });
    const deadline = deadlineOf(ctx, task.inputData);
    if ('error' in deadline) {
      // Bad input is not retried (§3.2): the task fails terminally and the run with it.
      task.status = 'FAILED_WITH_TERMINAL_ERROR';
      task.reasonForIncompletion = deadline.error;
      task.endTime = ctx.now;
    } else {
      task.waitTimeout = deadline.at;
    }
    return [task];
  },
  execute(ctx, task) {
    if (task.waitTimeout <= 0 || ctx.now < task.waitTimeout) return false;
    ctx.setStatus(task, 'COMPLETED');
    return true;
  },
  wakeAt: (task) => task.waitTimeout,
};

/** A task type that stays IN_PROGRESS until completed through the task API. */
function blockingTaskType(spec: TaskTypeSpec): TaskType {
  return {
    ...spec,
    schedule: (ctx: DecideContext, request: ScheduleRequest) => [
      ctx.createTask(request, { status: 'IN_PROGRESS', startTime: ctx.now }),
    ],
  };
}

export const humanTask: TaskType = blockingTaskType(humanSpec);
export const yieldTask: TaskType = blockingTaskType(yieldSpec);

const given = (value: unknown): boolean => value !== undefined && value !== null && value !== '';

/** The deadline (epoch ms; 0 for none) from a WAIT's resolved input, or why the input is unusable. */
function deadlineOf(ctx: DecideContext, input: Record<string, unknown>): { at: number } | { error: string } {
  const { duration, until } = input;
  if (given(duration) && given(until)) {
    return { error: "Both 'duration' and 'until' specified. Please provide only one input" };
  }
  try {
    if (given(duration)) return { at: ctx.now + parseDuration(String(duration)) };
    if (given(until)) return { at: parseUntil(String(until)) };
  } catch (error) {
    return { error: errorMessage(error) };
  }
  return { at: 0 };
}
