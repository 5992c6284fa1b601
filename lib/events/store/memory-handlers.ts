/** In-memory event handlers; each check-and-set has no await between check and write. */

import type { Tag } from '../../model/tags.ts';
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
    const existing = this.handlers.get(handler.name);
    if (!existing) return false;
    const tags = handler.tags ?? existing.tags;
    const { tags: _, ...rest } = structuredClone(handler);
    this.handlers.set(
      handler.name,
      tags && tags.length > 0 ? { ...rest, tags: structuredClone(tags) } : rest,
    );
    return true;
  }

  async changeTags(name: string, change: (tags: Tag[]) => Tag[]): Promise<Tag[] | undefined> {
    const existing = this.handlers.get(name);
    if (!existing) return undefined;
    const next = structuredClone(change(structuredClone(existing.tags ?? [])));
    const { tags: _, ...rest } = existing;
    this.handlers.set(name, next.length > 0 ? { ...rest, tags: next } : rest);
    return structuredClone(next);
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
