/**
 * The contract of the FileStore port, run against every adapter (files.memory.test.ts,
 * files.dynamodb.test.ts): create once, read back exactly, conditional updates where of
 * concurrent writers on one revision exactly one wins.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FileRecord } from '../../lib/files/model.ts';
import type { FileStore } from '../../lib/files/ports.ts';
import { ConflictError, VersionConflictError } from '../../lib/model/errors.ts';
import type { ServiceStores } from '../../lib/runtime/store-bundle.ts';

export interface FileStoresUnderTest {
  stores: ServiceStores;
  cleanup(): Promise<void>;
}

const record = (overrides: Partial<FileRecord> = {}): FileRecord => ({
  fileId: randomUUID(),
  workflowId: 'wf-1',
  taskId: 't-1',
  fileName: 'a.txt',
  contentType: 'text/plain',
  storageType: 'SERVICE',
  uploadStatus: 'UPLOADING',
  createdAt: 1_700_000_000_000,
  updatedAt: 1_700_000_000_000,
  rev: 1,
  ...overrides,
});

export function fileStoreContract(adapter: string, factory: () => Promise<FileStoresUnderTest>): void {
  describe(`FileStore contract: ${adapter}`, () => {
    let under: FileStoresUnderTest;
    let store: FileStore;
    beforeEach(async () => {
      under = await factory();
      store = under.stores.files;
    });
    afterEach(async () => {
      await under.cleanup();
    });

    it('reads back exactly what was created, and nothing for an unknown id', async () => {
      const file = record();
      await store.create(file);
      expect(await store.get(file.fileId)).toEqual(file);
      expect(await store.get(randomUUID())).toBeUndefined();
    });

    it('refuses to create a record whose id exists, keeping the first', async () => {
      const file = record();
      await store.create(file);
      await expect(store.create({ ...file, fileName: 'other' })).rejects.toBeInstanceOf(ConflictError);
      expect((await store.get(file.fileId))?.fileName).toBe('a.txt');
    });

    it('updates on the expected revision and refuses a stale one', async () => {
      const file = record();
      await store.create(file);
      const uploaded: FileRecord = {
        ...file,
        uploadStatus: 'UPLOADED',
        fileSize: 3,
        contentHash: 'abc',
        rev: 2,
      };
      await store.update(uploaded, 1);
      expect(await store.get(file.fileId)).toEqual(uploaded);
      await expect(store.update({ ...file, rev: 2 }, 1)).rejects.toBeInstanceOf(VersionConflictError);
      expect(await store.get(file.fileId)).toEqual(uploaded);
    });

    it('lets exactly one of ten concurrent updates of one revision win', async () => {
      const file = record();
      await store.create(file);
      const results = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) => store.update({ ...file, fileName: `n${i}`, rev: 2 }, 1)),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const winner = results.findIndex((r) => r.status === 'fulfilled');
      expect((await store.get(file.fileId))?.fileName).toBe(`n${winner}`);
    });

    it('refuses to update a record that does not exist', async () => {
      await expect(store.update(record({ rev: 2 }), 1)).rejects.toBeInstanceOf(VersionConflictError);
    });
  });
}
