/** In-memory event handlers; each check-and-set has no await between check and write. */

import { memoryTables, type TableSource } from '../../store/keyed.ts';
import type { EventHandler } from '../model.ts';
import type { EventHandlerStore } from '../ports.ts';

export class MemoryEventHandlerStore implements EventHandlerStore {
  private readonly handlers;

  constructor(tables: TableSource = memoryTables) {
    this.handlers = tables.table<EventHandler>('event-handlers');
  }

  async create(handler: EventHandler): Promise<boolean> {
    if (this.handlers.has(handler.name)) return false;
    this.handlers.set(handler.name, structuredClone(handler));
    return true;
  }

  async update(handler: EventHandler): Promise<boolean> {
    if (!this.handlers.has(handler.name)) return false;
    this.handlers.set(handler.name, structuredClone(handler));
    return true;
  }

  async get(name: string): Promise<EventHandler | undefined> {
    const handler = this.handlers.get(name);
    return handler && structuredClone(handler);
  }

  async list(): Promise<EventHandler[]> {
    return [...this.handlers.values()]
      .map((h) => structuredClone(h))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  async remove(name: string): Promise<boolean> {
    return this.handlers.delete(name);
  }
}
