/**
 * The contract of the SchemaStore port, run against every adapter (schemas.memory.test.ts,
 * schemas.dynamodb.test.ts), including the registry's version allocation over it: twenty
 * concurrent newVersion saves of one name get twenty distinct versions.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../lib/model/clock.ts';
import type { ServiceStores } from '../../lib/runtime/store-bundle.ts';
import type { SchemaRecord } from '../../lib/schemas/model.ts';
import type { SchemaStore } from '../../lib/schemas/ports.ts';
import { SchemaService } from '../../lib/schemas/service.ts';

export interface SchemaStoresUnderTest {
  stores: ServiceStores;
  cleanup(): Promise<void>;
}

const record = (name: string, version: number, extra: Partial<SchemaRecord> = {}): SchemaRecord => ({
  name,
  version,
  type: 'JSON',
  data: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    title: `${name} v${version}`,
  },
  createTime: 1000,
  updateTime: 1000,
  ...extra,
});

export function schemaStoreContract(adapter: string, factory: () => Promise<SchemaStoresUnderTest>): void {
  describe(`SchemaStore contract: ${adapter}`, () => {
    let under: SchemaStoresUnderTest;
    let store: SchemaStore;
    beforeEach(async () => {
      under = await factory();
      store = under.stores.schemas;
    });
    afterEach(async () => {
      await under.cleanup();
    });

    it('puts, reads one version and the latest, and replaces in place', async () => {
      await store.put(record('order', 1));
      await store.put(record('order', 3, { externalRef: { uri: 'x://y', n: [1, 2] } }));
      await store.put(record('order', 2));
      expect((await store.get('order'))?.version).toBe(3);
      expect(await store.get('order', 3)).toEqual(
        record('order', 3, { externalRef: { uri: 'x://y', n: [1, 2] } }),
      );
      await store.put(record('order', 1, { type: 'AVRO', updateTime: 2000 }));
      expect(await store.get('order', 1)).toMatchObject({ type: 'AVRO', updateTime: 2000 });
      expect(await store.get('order', 9)).toBeUndefined();
      expect(await store.get('nothing')).toBeUndefined();
    });

    it('creates only when the version is free', async () => {
      expect(await store.create(record('c', 1))).toBe(true);
      expect(await store.create(record('c', 1, { type: 'PROTOBUF' }))).toBe(false);
      expect((await store.get('c', 1))?.type).toBe('JSON');
    });

    it('lists every version of every name by name then version', async () => {
      await store.put(record('b', 2));
      await store.put(record('a', 1));
      await store.put(record('b', 1));
      expect((await store.list()).map((r) => `${r.name}@${r.version}`)).toEqual(['a@1', 'b@1', 'b@2']);
    });

    it('deletes one version and all versions, saying whether anything went', async () => {
      await store.put(record('d', 1));
      await store.put(record('d', 2));
      await store.put(record('e', 1));
      expect(await store.delete('d', 2)).toBe(true);
      expect(await store.delete('d', 2)).toBe(false);
      expect((await store.get('d'))?.version).toBe(1);
      await store.put(record('d', 5));
      expect(await store.deleteAll('d')).toBe(2);
      expect(await store.deleteAll('d')).toBe(0);
      expect(await store.get('d')).toBeUndefined();
      expect((await store.list()).map((r) => r.name)).toEqual(['e']);
    });

    it('hands out records whose change does not change what is stored', async () => {
      await store.put(record('f', 1));
      const read = (await store.get('f', 1)) as SchemaRecord;
      try {
        (read.data as Record<string, unknown>).title = 'changed';
      } catch (error) {
        if (!(error instanceof TypeError)) throw error;
      }
      expect((await store.get('f', 1))?.data?.title).toBe('f v1');
    });

    it('gives twenty concurrent newVersion saves of one name twenty distinct versions', async () => {
      const service = new SchemaService(store, new ManualClock(), { ttlMs: 0, maxSize: 1000 });
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          service.save({ name: 'busy', type: 'JSON', data: { title: `save ${i}` } }, true),
        ),
      );
      const versions = (await store.list()).filter((r) => r.name === 'busy').map((r) => r.version);
      expect(versions).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      const titles = new Set((await store.list()).map((r) => r.data?.title));
      expect(titles.size).toBe(20);
    });
  });
}
