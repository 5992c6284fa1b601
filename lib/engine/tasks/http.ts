/**
 * HTTP (docs/conductor-compat.md §5.19): an async task whose request is made off the decider. Its
 * `dispatch` (run by the executor before the decide that created it commits, as worker tasks are
 * queued) sends the task to the system-task queue (`queue`); the queue's consumer calls `perform`
 * (engine/system-tasks.ts), which checks the request and makes it (engine/http/client.ts). With no
 * queue (a bare registry in tests) `start` performs the request once the decide committed. A 2xx
 * completes the task (stays IN_PROGRESS with `asyncComplete`); a non-2xx, a timeout, a refused
 * connection or a refused private address fails it (FAILED, so the task's retry settings apply).
 */
import type { TaskRecord } from '../../model/execution.ts';
import { httpSpec } from '../../model/task-types/http.ts';
import { MAX_WORK_QUEUE_DELAY_MS, type WorkQueue } from '../../queue/ports.ts';
import { isUnwired, type SystemTaskMessage } from '../../queue/work-queues.ts';
import { performHttpRequest } from '../http/client.ts';
import { httpRequestOf } from '../http/request.ts';
import type { AsyncStartContext, AsyncTaskResult, TaskType } from '../task-type.ts';

export interface HttpTaskDeps {
  /** `service.http-task.allow-private-networks`. */
  allowPrivateNetworks: boolean;
  /** The system-task queue; requests are made by its consumer. */
  queue?: WorkQueue<SystemTaskMessage>;
}

export const httpTask = (deps: HttpTaskDeps = { allowPrivateNetworks: false }): TaskType => {
  const { queue } = deps;
  const perform = async ({ task }: AsyncStartContext): Promise<AsyncTaskResult> => {
    const request = httpRequestOf(task.inputData);
    if (typeof request === 'string') return { status: 'FAILED', reasonForIncompletion: request };
    const result = await performHttpRequest(request, { allowPrivateNetworks: deps.allowPrivateNetworks });
    if (result.status === 'COMPLETED' && task.workflowTask.asyncComplete)
      return { ...result, status: 'IN_PROGRESS' };
    return result;
  };
  return {
    ...httpSpec,
    schedule(ctx, request) {
      // A retry's delay (retryDelaySeconds) holds the request back in the queue (at most 15 min).
      const delay = request.delaySeconds ?? 0;
      return [
        ctx.createTask(request, { status: 'IN_PROGRESS', startTime: ctx.now, callbackAfterSeconds: delay }),
      ];
    },
    // The queue's consumer makes the request (and fails a request that is not valid). With no
    // queue, the request is made in process once the decide committed; a host without the queue's
    // grant (unwired) fails the task then, naming the missing property, rather than every decide.
    ...(!queue
      ? { start: perform }
      : isUnwired(queue)
        ? {
            async start(ctx: AsyncStartContext): Promise<AsyncTaskResult> {
              await send(queue, ctx.task);
              return { status: 'IN_PROGRESS' };
            },
          }
        : { dispatch: (task: TaskRecord) => send(queue, task) }),
    perform,
  };
};

/** Sends a task to the system-task queue, held back by its retry delay (at most 15 minutes). */
function send(queue: WorkQueue<SystemTaskMessage>, task: TaskRecord): Promise<void> {
  const delayMs = Math.min(task.callbackAfterSeconds * 1000, MAX_WORK_QUEUE_DELAY_MS);
  return queue.send(
    { workflowId: task.workflowInstanceId, taskId: task.taskId },
    delayMs > 0 ? { delayMs } : {},
  );
}
