/**
 * In-memory applications store, over a keyed table (lib/store/keyed.ts), so the same class serves
 * `SERVICE_STORE=memory` and the embedded store. The table holds the records by id; which
 * application holds a key is an index built from them at start and kept with every write. A
 * record is copied when written and when read, so no caller changes what is stored. Every check
 * and its write happen with no await between them, so they are as conditional as DynamoDB's.
 */
import { memoryTables, type TableSource } from '../../store/keyed.ts';
import type { ApplicationRecord } from '../model.ts';
import type { ApplicationStore } from '../ports.ts';

const copy = (record: ApplicationRecord): ApplicationRecord => structuredClone(record);

export class MemoryApplicationStore implements ApplicationStore {
  private readonly stored;
  /** Key id to application id. */
  private readonly byKey = new Map<string, string>();

  constructor(tables: TableSource = memoryTables) {
    this.stored = tables.table<ApplicationRecord>('applications');
    for (const record of this.stored.values()) this.index(record);
  }

  private index(record: ApplicationRecord): void {
    for (const key of record.keys) this.byKey.set(key.id, record.id);
  }

  private unindex(record: ApplicationRecord): void {
    for (const key of record.keys) this.byKey.delete(key.id);
  }

  async create(record: ApplicationRecord): Promise<boolean> {
    if (this.stored.has(record.id)) return false;
    this.stored.set(record.id, copy(record));
    this.index(record);
    return true;
  }

  async get(id: string): Promise<ApplicationRecord | undefined> {
    const record = this.stored.get(id);
    return record ? copy(record) : undefined;
  }

  async list(): Promise<ApplicationRecord[]> {
    return [...this.stored.values()]
      .map(copy)
      .sort((a, b) => a.createTime - b.createTime || (a.id < b.id ? -1 : 1));
  }

  async replace(record: ApplicationRecord, expected: number): Promise<boolean> {
    const current = this.stored.get(record.id);
    if (current?.revision !== expected) return false;
    this.unindex(current);
    this.stored.set(record.id, copy(record));
    this.index(record);
    return true;
  }

  async delete(id: string): Promise<boolean> {
    const current = this.stored.get(id);
    if (!current) return false;
    this.unindex(current);
    this.stored.delete(id);
    return true;
  }

  async findByKey(keyId: string): Promise<ApplicationRecord | undefined> {
    const id = this.byKey.get(keyId);
    return id === undefined ? undefined : this.get(id);
  }
}
