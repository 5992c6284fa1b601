/** The event handler store port: one handler per name, written conditionally. */
import type { EventHandler } from './model.ts';

export interface EventHandlerStore {
  /** Adds a handler; false when the name is taken. */
  create(handler: EventHandler): Promise<boolean>;
  /** Replaces a handler; false when there is none of that name. */
  update(handler: EventHandler): Promise<boolean>;
  get(name: string): Promise<EventHandler | undefined>;
  list(): Promise<EventHandler[]>;
  /** Removes a handler; false when there was none. */
  remove(name: string): Promise<boolean>;
}

export interface EventStores {
  eventHandlers: EventHandlerStore;
}
