/**
 * The workflow message queue's store port (docs/api.md "Workflow message and pull-task output"): one
 * queue per running workflow, oldest first, bounded by `maxQueueSize`, messages expiring after
 * their TTL. A push adds a message hidden until confirmed, so a push that fails half-way (409,
 * 429, a crash) never shows a message; reads drop expired messages themselves.
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

export type AddOutcome = 'added' | 'full';

export interface MessageStore {
  /**
   * Adds a hidden message when the queue holds fewer than `limit` live messages (expired ones are
   * dropped to make room), counted exactly under concurrent adds; 'full' stores nothing.
   */
  add(message: QueuedMessage, limit: number, now: number): Promise<AddOutcome>;
  /** Makes an added message visible to pulls. */
  confirm(workflowId: string, seq: string): Promise<void>;
  /** Takes back an added message (the run stopped running during the push). */
  withdraw(workflowId: string, seq: string): Promise<void>;
  /** Visible, unexpired messages, oldest first, at most `limit`. */
  peek(workflowId: string, now: number, limit: number): Promise<QueuedMessage[]>;
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
  /** Deletes the whole queue (the workflow ended). */
  deleteQueue(workflowId: string): Promise<void>;
}

export interface MessageStores {
  messages: MessageStore;
}
