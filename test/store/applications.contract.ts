/**
 * The contract of the ApplicationStore port, run against every adapter (applications.memory,
 * .embedded and .dynamodb tests), and the application service and key directory over it: writes
 * conditional on the revision read, keys findable by id exactly while their application holds
 * them, and what authentication reads is the state of now.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApplicationRecord } from '../../lib/applications/model.ts';
import type { ApplicationStore } from '../../lib/applications/ports.ts';
import { ApplicationService, keyDirectoryOf } from '../../lib/applications/service.ts';
import { ManualClock } from '../../lib/model/clock.ts';
import type { ServiceStores } from '../../lib/runtime/store-bundle.ts';
import { secretMatches } from '../../lib/security/secret-hash.ts';

export interface ApplicationStoresUnderTest {
  stores: ServiceStores;
  cleanup(): Promise<void>;
}

const record = (id: string, extra: Partial<ApplicationRecord> = {}): ApplicationRecord => ({
  id,
  name: `app ${id}`,
  roles: [],
  tags: [],
  keys: [],
  createTime: 1000,
  createdBy: 'admin',
  updateTime: 1000,
  updatedBy: 'admin',
  revision: 1,
  ...extra,
});

const key = (id: string, status: 'ACTIVE' | 'INACTIVE' = 'ACTIVE') => ({
  id,
  secretHash: `hash-of-${id}`,
  status,
  createdAt: 2000,
});

export function applicationStoreContract(
  adapter: string,
  factory: () => Promise<ApplicationStoresUnderTest>,
): void {
  describe(`ApplicationStore contract: ${adapter}`, () => {
    let under: ApplicationStoresUnderTest;
    let store: ApplicationStore;
    beforeEach(async () => {
      under = await factory();
      store = under.stores.applications;
    });
    afterEach(async () => {
      await under.cleanup();
    });

    it('creates once per id, reads back what was written, lists by creation time', async () => {
      expect(await store.create(record('b', { createTime: 2000, roles: ['WORKER'] }))).toBe(true);
      expect(await store.create(record('a', { tags: [{ key: 'k', value: 'v' }] }))).toBe(true);
      expect(await store.create(record('a', { name: 'other' }))).toBe(false);
      expect(await store.get('a')).toEqual(record('a', { tags: [{ key: 'k', value: 'v' }] }));
      expect((await store.get('b'))?.roles).toEqual(['WORKER']);
      expect(await store.get('nothing')).toBeUndefined();
      expect((await store.list()).map((r) => r.id)).toEqual(['a', 'b']);
    });

    it('replaces only on the revision read', async () => {
      await store.create(record('r'));
      expect(await store.replace(record('r', { name: 'renamed', revision: 2 }), 1)).toBe(true);
      expect(await store.replace(record('r', { name: 'stale', revision: 2 }), 1)).toBe(false);
      expect((await store.get('r'))?.name).toBe('renamed');
      expect(await store.replace(record('gone', { revision: 2 }), 1)).toBe(false);
      expect(await store.get('gone')).toBeUndefined();
    });

    it('finds an application by a key exactly while it holds the key', async () => {
      await store.create(record('k'));
      expect(await store.findByKey('key-1')).toBeUndefined();
      await store.replace(record('k', { keys: [key('key-1'), key('key-2')], revision: 2 }), 1);
      expect((await store.findByKey('key-1'))?.id).toBe('k');
      expect((await store.findByKey('key-2'))?.keys.map((k) => k.id)).toEqual(['key-1', 'key-2']);
      await store.replace(record('k', { keys: [key('key-2', 'INACTIVE')], revision: 3 }), 2);
      expect(await store.findByKey('key-1')).toBeUndefined();
      expect((await store.findByKey('key-2'))?.keys[0]?.status).toBe('INACTIVE');
      expect(await store.delete('k')).toBe(true);
      expect(await store.delete('k')).toBe(false);
      expect(await store.findByKey('key-2')).toBeUndefined();
      expect(await store.get('k')).toBeUndefined();
    });

    it('hands out records whose change does not change what is stored', async () => {
      await store.create(record('c', { roles: ['USER'] }));
      const read = (await store.get('c')) as ApplicationRecord;
      read.roles.push('ADMIN');
      read.name = 'changed';
      expect(await store.get('c')).toEqual(record('c', { roles: ['USER'] }));
    });

    describe('the service and key directory over it', () => {
      const clock = new ManualClock(Date.UTC(2026, 0, 1));
      let service: ApplicationService;
      beforeEach(() => {
        service = new ApplicationService(store, clock);
      });

      it('keeps a key secret only as a hash, and says what the key may do now', async () => {
        const app = await service.create('billing', 'admin-key');
        expect(app).toMatchObject({ name: 'billing', createdBy: 'admin-key', roles: [], tags: [] });
        const created = await service.createKey(app.id, 'admin-key');
        expect(created.secret.length).toBeGreaterThanOrEqual(32);
        const stored = (await store.get(app.id))?.keys[0];
        expect(JSON.stringify(await store.get(app.id))).not.toContain(created.secret);
        expect(stored?.secretHash).toMatch(/^scrypt\$/);
        expect(await secretMatches(created.secret, stored?.secretHash ?? '')).toBe(true);

        const directory = keyDirectoryOf(store);
        expect(await directory.key(created.id)).toMatchObject({
          applicationId: app.id,
          active: true,
          roles: [],
        });
        await service.addRole(app.id, 'WORKER', 'admin-key');
        expect((await directory.keyOf(app.id, created.id))?.roles).toEqual(['WORKER']);
        expect(await service.toggleKey(app.id, created.id, 'admin-key')).toMatchObject({
          id: created.id,
          status: 'INACTIVE',
        });
        expect((await directory.keyOf(app.id, created.id))?.active).toBe(false);
        await service.deleteKey(app.id, created.id, 'admin-key');
        expect(await directory.keyOf(app.id, created.id)).toBeUndefined();
        expect(await directory.key(created.id)).toBeUndefined();
        expect(await directory.keyOf('no-such-app', created.id)).toBeUndefined();
      });

      it('lands every one of concurrent changes to one application', async () => {
        const app = await service.create('busy', 'admin');
        await Promise.all([
          service.addRole(app.id, 'WORKER', 'a'),
          service.addRole(app.id, 'METADATA_MANAGER', 'b'),
          service.addTags(app.id, [{ key: 't1', value: '1' }], 'c'),
          service.addTags(app.id, [{ key: 't2', value: '2' }], 'd'),
          service.rename(app.id, 'busier', 'e'),
        ]);
        const after = await service.get(app.id);
        expect([...after.roles].sort()).toEqual(['METADATA_MANAGER', 'WORKER']);
        expect(after.tags.map((t) => t.key).sort()).toEqual(['t1', 't2']);
        expect(after.name).toBe('busier');
      });
    });
  });
}
