/**
 * The schema read cache (docs/api.md "Limits": service.app.schema-cache.ttl and .max-size): entries
 * live `ttlMs` on the injected clock (0 disables the cache) and at most `maxSize` are kept, the
 * least recently used going first. By-version and latest-by-name lookups are separate entries.
 * A save or delete on this node drops the name's entries; other nodes see it after the ttl.
 */
import type { Clock } from '../model/clock.ts';

export interface CacheOptions {
  ttlMs: number;
  maxSize: number;
}

interface Entry<V> {
  value: V;
  expiresAt: number;
}

export class SchemaCache<V> {
  // A Map iterates in insertion order: re-inserting on a hit keeps the least recent first.
  private readonly entries = new Map<string, Entry<V>>();
  hits = 0;
  misses = 0;

  constructor(
    private readonly clock: Clock,
    private readonly options: CacheOptions,
  ) {}

  get enabled(): boolean {
    return this.options.ttlMs > 0;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The cached value, or what `load` reads (cached when found). */
  async read(
    name: string,
    version: number | undefined,
    load: () => Promise<V | undefined>,
  ): Promise<V | undefined> {
    if (!this.enabled) return load();
    const key = keyOf(name, version);
    const entry = this.entries.get(key);
    const now = this.clock.now();
    if (entry && entry.expiresAt > now) {
      this.hits += 1;
      this.entries.delete(key);
      this.entries.set(key, entry);
      return entry.value;
    }
    this.misses += 1;
    if (entry) this.entries.delete(key);
    const value = await load();
    if (value !== undefined) {
      this.entries.set(key, { value, expiresAt: now + this.options.ttlMs });
      while (this.entries.size > this.options.maxSize) {
        const oldest = this.entries.keys().next().value;
        if (oldest === undefined) break;
        this.entries.delete(oldest);
      }
    }
    return value;
  }

  /** Drops every entry of a name: its latest and each of its versions. */
  invalidate(name: string): void {
    const prefix = `${name}\u0000`;
    for (const key of this.entries.keys()) {
      if (key.startsWith(prefix)) this.entries.delete(key);
    }
  }
}

const keyOf = (name: string, version: number | undefined) => `${name}\u0000${version ?? 'latest'}`;
