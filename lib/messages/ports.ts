/**
 * The workflow message queue's store port (docs/api.md "Workflow message and pull-task output"): one
 * queue per running workflow, oldest first, bounded by `maxQueueSize`, messages expiring after
 * their TTL. A push adds a message hidden until confirmed, so a push that fails half-way (409,
 * 429, a crash) never shows a message; reads drop expired messages themselves.
 */

import type { MessageClaims, QueuedMessage } from '../engine/workflow-messages.ts';

export type { MessageClaims, QueuedMessage, WorkflowMessage } from '../engine/workflow-messages.ts';

export type AddOutcome = 'added' | 'full';

/** The store; what pull tasks read of it is the engine's port (MessageClaims). */
export interface MessageStore extends MessageClaims {
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
  /** Deletes the whole queue (the workflow ended). */
  deleteQueue(workflowId: string): Promise<void>;
}

export interface MessageStores {
  messages: MessageStore;
}
