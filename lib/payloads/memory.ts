/** In-memory payload store: the memory host's and the tests' backend. */
import type { PayloadStore, StoredPayload } from './ports.ts';

export class MemoryPayloadStore implements PayloadStore {
  private readonly documents = new Map<string, { json: string; writtenAt: number }>();

  /** `now` stamps each write (a test's clock; the system clock by default). */
  constructor(private readonly now: () => number = Date.now) {}

  async put(key: string, json: string): Promise<void> {
    this.documents.set(key, { json, writtenAt: this.now() });
  }

  async get(key: string): Promise<string | undefined> {
    return this.documents.get(key)?.json;
  }

  async *list(): AsyncIterable<StoredPayload> {
    for (const [key, { writtenAt }] of [...this.documents]) yield { key, writtenAt };
  }

  /** Checked and deleted in one step: no write of this store can come between. */
  async reclaim(key: string, writtenAt: number): Promise<boolean> {
    if (this.documents.get(key)?.writtenAt !== writtenAt) return false;
    return this.documents.delete(key);
  }

  /** How many documents are stored (tests check that content keys deduplicate). */
  get size(): number {
    return this.documents.size;
  }
}
