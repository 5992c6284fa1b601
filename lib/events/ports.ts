/**
 * The events capability's store ports: event handlers (one per name, written conditionally) and the
 * executions of their actions (one record per message, handler and action, claimed conditionally so
 * that a message delivered twice runs no action twice).
 */
import type { Tag } from '../model/tags.ts';
import type { EventExecution, EventHandler } from './model.ts';

export interface EventHandlerStore {
  /** Adds a handler (with its tags, if it carries any); false when the name is taken. */
  create(handler: EventHandler): Promise<boolean>;
  /**
   * Replaces a handler; its tags are replaced only when it carries `tags`, else they stay. False
   * when there is none of that name.
   */
  update(handler: EventHandler): Promise<boolean>;
  /**
   * Stores what `change` makes of the handler's tags, as one atomic change (none of concurrent
   * changes, or of a concurrent update, is lost). Answers the tags stored, or undefined, storing
   * nothing, when there is no handler of that name.
   */
  changeTags(name: string, change: (tags: Tag[]) => Tag[]): Promise<Tag[] | undefined>;
  get(name: string): Promise<EventHandler | undefined>;
  list(): Promise<EventHandler[]>;
  /** Removes a handler; false when there was none. */
  remove(name: string): Promise<boolean>;
}

/** What a claim found: the execution is now this caller's to carry out, or someone else's. */
export type ClaimOutcome =
  | { claimed: true }
  /** Already over (COMPLETED, FAILED, SKIPPED), or IN_PROGRESS under another claimer's lease. */
  | { claimed: false; existing: EventExecution };

export interface EventExecutionStore {
  /**
   * Records an IN_PROGRESS execution unless one with its id exists; an IN_PROGRESS one whose lease
   * ran out (its claimer died) is taken over. `expiresAt` (epoch ms) is when the record may go.
   */
  claim(execution: EventExecution, leaseUntil: number, expiresAt: number, now: number): Promise<ClaimOutcome>;
  /** Stores the execution's final status and output. */
  finish(execution: EventExecution, expiresAt: number): Promise<void>;
  /** A handler's unexpired executions, newest first, at most `limit`, created at or after `from`. */
  list(name: string, now: number, options: { from?: number; limit: number }): Promise<EventExecution[]>;
}

export interface EventStores {
  eventHandlers: EventHandlerStore;
  eventExecutions: EventExecutionStore;
}
