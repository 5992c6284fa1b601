/**
 * The work queues of the service, by name, with what both adapters check before sending. A queue
 * is declared with its consumer, in the capability that owns it (QueueSpec in lib/jobs/types.ts:
 * its name, type, URL property and SQS settings); this module holds only what senders need, so
 * that lib/engine and the hosts do not depend on lib/jobs.
 */
import { MAX_WORK_QUEUE_DELAY_MS, type SendOptions, type WorkQueue } from './ports.ts';

/**
 * A queue's name, as its consumer declares it (`consumer.queue.name`). Today:
 * - decisions: FIFO, one message per decide request, group = workflow id (consumer: decider);
 * - timers: standard, delayed wake-ups, forwarded to `decisions` when due (consumer: timer);
 * - schedules: standard, one message per schedule fire time, delayed to that second (consumer:
 *   schedule-fire; lib/scheduler);
 * - system-tasks: standard, async system tasks run off the decider (HTTP; consumer: system-tasks);
 * - events: standard, messages EVENT tasks publish to `conductor:` sinks (consumer: event-handlers;
 *   lib/events).
 * A grant naming a queue no consumer declares fails the stack's synthesis and its tests.
 */
export type WorkQueueName = string;

/** FIFO queues keep order per message group and take no per-message delay; standard ones do. */
export type WorkQueueType = 'fifo' | 'standard';

/**
 * The message of both decision queues, as sent on the wire: `{"workflowId": "..."}`, with
 * `taskIds` when it announces only that these task rows changed (a worker's update): a decide whose
 * messages all name their rows reads just those of the run's open tasks (Executor.decide).
 */
export interface DecisionMessage {
  workflowId: string;
  taskIds?: readonly string[];
}

/** A decision message from its parsed body; undefined when it names no workflow. */
export function decodeDecisionMessage(body: unknown): DecisionMessage | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { workflowId, taskIds } = body as Partial<Record<keyof DecisionMessage, unknown>>;
  if (typeof workflowId !== 'string' || workflowId === '') return undefined;
  // Rows it cannot read are no hint: the decide reads every open task's row.
  const named =
    Array.isArray(taskIds) &&
    taskIds.length > 0 &&
    taskIds.every((id) => typeof id === 'string' && id !== '');
  return named ? { workflowId, taskIds: taskIds as string[] } : { workflowId };
}

/** The most rows a merged decide request names (a few BatchGetItem calls' worth). */
export const MAX_NAMED_ROWS = 500;

/**
 * Two decide requests for one run as one: the rows both name, or none (every open row) when either
 * names none (or they name more than MAX_NAMED_ROWS).
 */
export function mergeDecisionMessages(a: DecisionMessage, b: DecisionMessage): DecisionMessage {
  if (!a.taskIds || !b.taskIds) return { workflowId: a.workflowId };
  const taskIds = [...new Set([...a.taskIds, ...b.taskIds])];
  return taskIds.length > MAX_NAMED_ROWS
    ? { workflowId: a.workflowId }
    : { workflowId: a.workflowId, taskIds };
}

/** A system task to carry out off the decider: `{"workflowId": "...", "taskId": "..."}`. */
export interface SystemTaskMessage {
  workflowId: string;
  taskId: string;
}

export function decodeSystemTaskMessage(body: unknown): SystemTaskMessage | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { workflowId, taskId } = body as Partial<Record<keyof SystemTaskMessage, unknown>>;
  if (typeof workflowId !== 'string' || workflowId === '' || typeof taskId !== 'string' || taskId === '')
    return undefined;
  return { workflowId, taskId };
}

/**
 * One event for the event handlers (lib/events): the event name handlers match (`conductor:wf:sink`,
 * `sqs:orders`, `eventbridge:bus:DetailType`), the message's id (it names the executions, so a
 * message delivered twice runs no action twice) and its payload.
 */
export interface EventMessage {
  messageId: string;
  event: string;
  payload: unknown;
}

export function decodeEventMessage(body: unknown): EventMessage | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { messageId, event, payload } = body as Partial<Record<keyof EventMessage, unknown>>;
  if (typeof messageId !== 'string' || messageId === '' || typeof event !== 'string' || event === '')
    return undefined;
  return { messageId, event, payload };
}

/**
 * The work queues services send to directly (the decision queue has its own port): schedule fires,
 * async system tasks (HTTP) handed off the decider, EVENT tasks' `conductor:` messages.
 */
export interface WorkQueues {
  /** The host's queue of this name, or an unwired one whose sends fail naming it. */
  of<M>(name: WorkQueueName): WorkQueue<M>;
}

/**
 * The host's queues by name; a name it was not given (a function without the send grant) is
 * unwired, its sends failing with the queue's URL property named (`urlProperties`).
 */
export function workQueuesOf(
  given: Readonly<Record<WorkQueueName, WorkQueue<unknown>>>,
  urlProperties: ReadonlyMap<WorkQueueName, string>,
): WorkQueues {
  return {
    of: <M>(name: WorkQueueName) =>
      (given[name] as WorkQueue<M> | undefined) ?? unwiredWorkQueue<M>(name, urlProperties.get(name)),
  };
}

/** The unwired queues handed out, so a sender can tell one before it relies on it (isUnwired). */
const unwired = new WeakSet<WorkQueue<unknown>>();

/** A queue this host was not given (a function without the send grant): every send fails, saying so. */
export function unwiredWorkQueue<M>(name: WorkQueueName, urlProperty = 'no URL property'): WorkQueue<M> {
  const queue: WorkQueue<M> = {
    send: () => Promise.reject(new Error(`This host has no '${name}' work queue (${urlProperty})`)),
  };
  unwired.add(queue as WorkQueue<unknown>);
  return queue;
}

/** Whether a queue is one this host was not given (unwiredWorkQueue): its every send fails. */
export const isUnwired = (queue: WorkQueue<unknown>): boolean => unwired.has(queue);

/**
 * Refuses a send that one of the adapters could not honour, so that the local host fails where
 * SQS would (a behaviour that works locally and not on AWS is a bug).
 */
export function checkSend(queue: string, type: WorkQueueType, options: SendOptions): void {
  const delayMs = options.delayMs ?? 0;
  if (!Number.isFinite(delayMs) || delayMs < 0 || delayMs > MAX_WORK_QUEUE_DELAY_MS) {
    throw new RangeError(
      `Work queue '${queue}': a delay must be between 0 and ${MAX_WORK_QUEUE_DELAY_MS} ms, got ${delayMs}`,
    );
  }
  if (type === 'fifo') {
    if (options.groupId === undefined || options.groupId === '') {
      throw new RangeError(`Work queue '${queue}' is FIFO: every message needs a groupId`);
    }
    if (delayMs > 0) throw new RangeError(`Work queue '${queue}' is FIFO: SQS takes no per-message delay`);
  }
}
