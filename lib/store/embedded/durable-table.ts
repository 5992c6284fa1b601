/**
 * A table of the embedded store kept whole in memory (store/keyed.ts): a Map whose `set` and
 * `delete` also record the change for the next group commit (database.ts). Values are JSON.
 */
import type { KeyedTable } from '../keyed.ts';
import { EmbeddedDb } from './database.ts';

export class DurableTable<V> extends Map<string, V> implements KeyedTable<V> {
  private readonly db: EmbeddedDb | undefined;
  private readonly table: string;
  private readonly generation: number;

  constructor(db: EmbeddedDb, table: string) {
    super();
    for (const [key, json] of db.rowsOf(table)) super.set(JSON.parse(key) as string, JSON.parse(json) as V);
    // Assigned after the rows: Map's constructor and the loop above must not record anything.
    this.db = db;
    this.table = table;
    this.generation = db.generation;
  }

  override set(key: string, value: V): this {
    this.db?.put(storedKey(this.table, key), JSON.stringify(value), this.generation);
    return super.set(key, value);
  }

  override delete(key: string): boolean {
    if (!super.has(key)) return false;
    this.db?.del(storedKey(this.table, key), this.generation);
    return super.delete(key);
  }

  override clear(): void {
    for (const key of [...super.keys()]) this.delete(key);
  }
}

/**
 * A row's key on disk: the key as a JSON string, so any string is stored as itself (an unpaired
 * surrogate, which UTF-8 cannot hold, is written escaped instead of replaced).
 */
const storedKey = (table: string, key: string): string => EmbeddedDb.memoryKey(table, JSON.stringify(key));
