/**
 * The local host's system-task queue: an in-process work queue whose consumer runs at most
 * `service.http-task.concurrency` tasks at once (later messages wait their turn), so a burst of
 * slow HTTP endpoints never occupies the decider nor opens unbounded sockets. On AWS the same
 * messages go to SQS and the system-tasks consumer (lib/jobs/system-tasks.ts).
 */
import type { Logger } from '../log/logger.ts';
import { LocalWorkQueue } from '../queue/local-work-queue.ts';
import type { EventMessage, SystemTaskMessage } from '../queue/work-queues.ts';

export function localSystemTaskQueue(logger: Logger): LocalWorkQueue<SystemTaskMessage> {
  // Deliveries of a message whose handling threw (a store error): as the SQS queue's maxReceiveCount.
  return new LocalWorkQueue<SystemTaskMessage>({
    name: 'system-tasks',
    type: 'standard',
    logger,
    maxAttempts: 5,
  });
}

/**
 * The local host's queue of `conductor:` events (EVENT tasks): delivered to the event handlers in
 * this process, each message on its own; a failed one (store trouble, an action another delivery
 * holds) is delivered again after a pause, at most as often as the SQS queue's maxReceiveCount.
 */
export function localEventQueue(logger: Logger): LocalWorkQueue<EventMessage> {
  return new LocalWorkQueue<EventMessage>({ name: 'events', type: 'standard', logger, maxAttempts: 5 });
}

/** Wraps a handler so that at most `limit` calls run at once; the rest wait in arrival order. */
export function bounded<M>(
  limit: number,
  handle: (message: M) => Promise<void>,
): (message: M) => Promise<void> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (message) => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      await handle(message);
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}
