/**
 * In-memory file record store: for tests, benchmarks and `SERVICE_STORE=memory`. Records are
 * copied in and out; create and update check and set with no await between, so they are as
 * conditional as DynamoDB's writes.
 */

import { ConflictError, VersionConflictError } from '../../model/errors.ts';
import { memoryTables, type TableSource } from '../../store/keyed.ts';
import type { FileRecord } from '../model.ts';
import type { FileStore } from '../ports.ts';

export class MemoryFileStore implements FileStore {
  private readonly records;

  constructor(tables: TableSource = memoryTables) {
    this.records = tables.table<FileRecord>('files');
  }

  async create(record: FileRecord): Promise<void> {
    if (this.records.has(record.fileId)) throw new ConflictError(`File ${record.fileId} already exists`);
    this.records.set(record.fileId, { ...record });
  }

  async get(fileId: string): Promise<FileRecord | undefined> {
    const record = this.records.get(fileId);
    return record && { ...record };
  }

  async update(record: FileRecord, expectedRev: number): Promise<void> {
    const stored = this.records.get(record.fileId);
    if (stored?.rev !== expectedRev) {
      throw new VersionConflictError(
        `File ${record.fileId} changed concurrently (expected rev ${expectedRev})`,
      );
    }
    this.records.set(record.fileId, { ...record });
  }
}
