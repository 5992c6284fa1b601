/**
 * In-memory schema store: for tests, benchmarks and `SERVICE_STORE=memory`. A record is copied once
 * when written and frozen; reads hand out that frozen object. Create is a check-and-set with no
 * await between the two, so it is as conditional as DynamoDB's.
 */

import { keyOf, memoryTables, type TableSource } from '../../store/keyed.ts';
import type { SchemaRecord } from '../model.ts';
import type { SchemaStore } from '../ports.ts';

function frozenCopy<T>(value: T): T {
  const freeze = (v: unknown): void => {
    if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) {
      for (const child of Object.values(v)) freeze(child);
      Object.freeze(v);
    }
  };
  const copy = JSON.parse(JSON.stringify(value)) as T;
  freeze(copy);
  return copy;
}

export class MemorySchemaStore implements SchemaStore {
  /** Every version, by name and version (what is stored); `byName` is built from it. */
  private readonly stored;
  private readonly byName = new Map<string, Map<number, SchemaRecord>>();

  constructor(tables: TableSource = memoryTables) {
    this.stored = tables.table<SchemaRecord>('schemas');
    for (const record of this.stored.values()) this.keep(frozenCopy(record));
  }

  private keep(record: SchemaRecord): void {
    const versions = this.byName.get(record.name) ?? new Map<number, SchemaRecord>();
    versions.set(record.version, record);
    this.byName.set(record.name, versions);
  }

  async put(record: SchemaRecord): Promise<void> {
    const copy = frozenCopy(record);
    this.stored.set(keyOf(record.name, record.version), copy);
    this.keep(copy);
  }

  async create(record: SchemaRecord): Promise<boolean> {
    if (this.byName.get(record.name)?.has(record.version)) return false;
    await this.put(record);
    return true;
  }

  async get(name: string, version?: number): Promise<SchemaRecord | undefined> {
    const versions = this.byName.get(name);
    if (!versions || versions.size === 0) return undefined;
    return versions.get(version ?? Math.max(...versions.keys()));
  }

  async list(): Promise<SchemaRecord[]> {
    const names = [...this.byName.keys()].sort();
    return names.flatMap((name) =>
      [...(this.byName.get(name)?.values() ?? [])].sort((a, b) => a.version - b.version),
    );
  }

  async delete(name: string, version: number): Promise<boolean> {
    const versions = this.byName.get(name);
    const removed = versions?.delete(version) ?? false;
    if (removed) this.stored.delete(keyOf(name, version));
    if (versions?.size === 0) this.byName.delete(name);
    return removed;
  }

  async deleteAll(name: string): Promise<number> {
    const versions = [...(this.byName.get(name)?.keys() ?? [])];
    for (const version of versions) this.stored.delete(keyOf(name, version));
    this.byName.delete(name);
    const count = versions.length;
    return count;
  }
}
