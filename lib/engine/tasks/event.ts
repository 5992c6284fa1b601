/**
 * EVENT (docs/conductor-compat.md §5.20): publishes its resolved input, plus `workflowInstanceId`,
 * `workflowType`, `workflowVersion`, `correlationId` and `taskToDomain`, to its sink (lib/events/
 * sinks.ts) and completes with that payload plus `event_produced` (the event name handlers match);
 * with `asyncComplete` it stays IN_PROGRESS until updated. The `sink` may be templated; it is
 * resolved when the task is scheduled and kept in its input, as Conductor does.
 *
 * The message id is the task's id, so a `start` run twice (a decide re-run after a crash) publishes
 * a message the event handlers recognise: they run no action twice for it. A sink the service
 * cannot reach (another queue type, no AWS publisher, a refused send) fails the task (FAILED, so
 * the task definition's retries apply) with the reason; a malformed sink fails it terminally.
 */

import { errorMessage } from '../../model/errors.ts';
import { eventSpec } from '../../model/task-types/event.ts';
import { type EventSinks, parseSink, publish } from '../event-sinks/sinks.ts';
import type { AsyncTaskResult, TaskType } from '../task-type.ts';

export function eventTask(sinks?: EventSinks): TaskType {
  return {
    ...eventSpec,
    schedule(ctx, request) {
      const task = ctx.createTask(request, { status: 'IN_PROGRESS', startTime: ctx.now });
      task.inputData = { ...task.inputData, sink: ctx.resolve(request.workflowTask.sink, task.taskId) };
      return [task];
    },
    async start({ task, run }): Promise<AsyncTaskResult> {
      const sink = parseSink(task.inputData.sink, run.workflowName, task.referenceTaskName);
      if (typeof sink === 'string')
        return { status: 'FAILED_WITH_TERMINAL_ERROR', reasonForIncompletion: sink };
      if (!sinks) {
        return {
          status: 'FAILED_WITH_TERMINAL_ERROR',
          reasonForIncompletion: 'EVENT needs the event sinks, which this engine lacks',
        };
      }
      const payload = {
        ...task.inputData,
        workflowInstanceId: run.workflowId,
        workflowType: run.workflowName,
        workflowVersion: run.workflowVersion,
        correlationId: run.correlationId ?? null,
        taskToDomain: run.taskToDomain,
      };
      try {
        await publish(sinks, sink, { messageId: task.taskId, event: sink.event, payload });
      } catch (error) {
        return {
          status: 'FAILED',
          reasonForIncompletion: `Could not publish to ${sink.event}: ${errorMessage(error)}`,
        };
      }
      const outputData = { ...payload, event_produced: sink.event };
      return { status: task.workflowTask.asyncComplete ? 'IN_PROGRESS' : 'COMPLETED', outputData };
    },
  };
}
