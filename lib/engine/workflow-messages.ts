/**
 * The engine's port onto a run's message queue: what PULL_WORKFLOW_MESSAGES needs (claim messages
 * for one pull task, settle them when the task is over). The workflow message queue (lib/messages)
 * implements it with its store and contributes it to the engine.
 */

/** One message as the API and PULL_WORKFLOW_MESSAGES show it. */
export interface WorkflowMessage {
  id: string;
  workflowId: string;
  payload: Record<string, unknown>;
  /** ISO 8601, stamped at ingestion. */
  receivedAt: string;
}

/** A message as stored: its order key and its expiry (epoch ms). */
export interface QueuedMessage extends WorkflowMessage {
  /** Orders the queue: receivedAt's milliseconds, then a per-process counter. */
  seq: string;
  expiresAt: number;
}

/** A run's queue as a pull task reads it. */
export interface MessageClaims {
  /**
   * Hands up to `limit` messages to one pull task, oldest first: those it claimed already (a re-run
   * of its start) first, then visible unclaimed ones, each claimed by one task only (a conditional
   * write). A claimed message no longer counts toward the queue's bound.
   */
  claim(workflowId: string, taskId: string, now: number, limit: number): Promise<QueuedMessage[]>;
  /** The claimed messages, by the task that claimed them. */
  claims(workflowId: string): Promise<Map<string, QueuedMessage[]>>;
  /**
   * After a claiming task is over: its delivered messages leave the queue, the others (claimed by a
   * start whose answer lost the race) return to it unclaimed.
   */
  settle(workflowId: string, taskId: string, delivered: readonly string[]): Promise<void>;
}
