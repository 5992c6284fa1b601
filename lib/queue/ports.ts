/**
 * The decision queue: asks for a decide of one run, at most one at a time per run. On AWS an SQS
 * FIFO queue with the workflow id as message group; locally a keyed serial executor with timers.
 */
export interface DecisionQueue {
  /** Requests a decide of the run, now or after a delay. Requests for the same run coalesce. */
  request(workflowId: string, delayMs?: number): Promise<void>;
  /** Arms (or re-arms) a wake-up at an absolute time; 0 clears it. */
  wakeAt(workflowId: string, at: number): Promise<void>;
}
