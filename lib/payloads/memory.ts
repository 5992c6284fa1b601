/** In-memory payload store: the memory host's and the tests' backend. */
import type { PayloadStore } from './ports.ts';

export class MemoryPayloadStore implements PayloadStore {
  private readonly documents = new Map<string, string>();

  async put(key: string, json: string): Promise<void> {
    this.documents.set(key, json);
  }

  async get(key: string): Promise<string | undefined> {
    return this.documents.get(key);
  }

  /** How many documents are stored (tests check that content keys deduplicate). */
  get size(): number {
    return this.documents.size;
  }
}
