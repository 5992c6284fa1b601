/**
 * Queue ports. A work queue carries messages to one consumer, now or after a delay, optionally in
 * a message group (handled one at a time, in order). The decision queue is the engine's typed use
 * of two work queues (lib/queue/work-queues.ts): decide requests, at most one at a time per run,
 * and delayed wake-ups. On AWS they are SQS queues; locally in-process ones.
 */

/** How one message is sent. */
export interface SendOptions {
  /**
   * Hold the message this long before delivering it; at most MAX_WORK_QUEUE_DELAY_MS, and only on
   * a standard queue. Longer waits are stored due times found by a periodic job (as the sweeper
   * finds stored wake-ups), never a message delay: SQS holds a message for 15 minutes at most.
   */
  delayMs?: number;
  /** Required on a FIFO queue: messages of one group are handled one at a time, in send order. */
  groupId?: string;
}

export interface WorkQueue<M> {
  /** Sends one message; resolves once the queue holds it (not once it is handled). */
  send(message: M, options?: SendOptions): Promise<void>;
}

/** The longest delay a work queue takes: SQS's DelaySeconds limit (900 s). */
export const MAX_WORK_QUEUE_DELAY_MS = 15 * 60 * 1000;

/** How early a delayed message may bring its decide: clocks differ between functions, and then some. */
export const EARLY_WAKE_MS = 2000;

export interface DecisionQueue {
  /** Requests a decide of the run, now or after a delay. Requests for the same run coalesce. */
  request(workflowId: string, delayMs?: number): Promise<void>;
  /**
   * Requests a decide because these task rows of the run changed (a worker's or a system task's
   * update). A decide asked for only by such requests reads just those rows of the run's open tasks,
   * not every one: a fork of N worker branches then reads each row once per change, not N times.
   */
  requestForTasks(workflowId: string, taskIds: readonly string[]): Promise<void>;
  /**
   * Arms (or re-arms) a wake-up at an absolute time; 0 clears it. `keptSince`: the run's stored
   * wake-up was `at` already, armed by the decide that committed at that time
   * (WorkflowRecord.wakeArmedAt; a decide arms before it commits, so a stored one was armed); a
   * queue that pays per arming skips one it armed then.
   */
  wakeAt(workflowId: string, at: number, keptSince?: number): Promise<void>;
  /**
   * Resolves once this process has no decide of the run running or waiting (one waiting for its
   * retry aside). Where decides run elsewhere (SQS) it resolves at once: nobody waits on another
   * machine.
   */
  settled(workflowId: string): Promise<void>;
}
