/**
 * The contract of the EventHandlerStore port, run against every adapter: a name is created once,
 * updates and removes need an existing name, lists come back sorted by name.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventHandler } from '../../lib/events/model.ts';
import type { EventHandlerStore } from '../../lib/events/ports.ts';
import type { ServiceStores } from '../../lib/runtime/store-bundle.ts';

export interface EventStoresUnderTest {
  stores: ServiceStores;
  cleanup(): Promise<void>;
}

const handler = (name: string, extra: Partial<EventHandler> = {}): EventHandler => ({
  name,
  event: 'sqs:orders',
  active: true,
  actions: [{ action: 'complete_task', complete_task: { workflowId: 'w', taskRefName: 't' } }],
  ...extra,
});

export function eventHandlerStoreContract(
  adapter: string,
  factory: () => Promise<EventStoresUnderTest>,
): void {
  describe(`EventHandlerStore contract: ${adapter}`, () => {
    let under: EventStoresUnderTest;
    let store: EventHandlerStore;
    beforeEach(async () => {
      under = await factory();
      store = under.stores.eventHandlers;
    });
    afterEach(async () => {
      await under.cleanup();
    });

    it('creates a name once, even under concurrent creates', async () => {
      const results = await Promise.all(Array.from({ length: 10 }, () => store.create(handler('h'))));
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await store.get('h')).toEqual(handler('h'));
    });

    it('updates and removes only existing names, and lists by name', async () => {
      expect(await store.update(handler('x'))).toBe(false);
      expect(await store.remove('x')).toBe(false);
      await store.create(handler('b'));
      await store.create(handler('a'));
      expect(await store.update(handler('b', { description: 'new' }))).toBe(true);
      expect((await store.list()).map((h) => [h.name, h.description])).toEqual([
        ['a', undefined],
        ['b', 'new'],
      ]);
      expect(await store.remove('a')).toBe(true);
      expect(await store.get('a')).toBeUndefined();
    });

    it('keeps a handler its tags: created with it, through an update without tags, replaced by one with', async () => {
      const env = { key: 'env', value: 'test' };
      const team = { key: 'team', value: 'ünï' };
      await store.create(handler('tagged', { tags: [env] }));
      expect(await store.get('tagged')).toEqual(handler('tagged', { tags: [env] }));
      expect(await store.update(handler('tagged', { description: 'changed' }))).toBe(true);
      expect(await store.get('tagged')).toEqual(handler('tagged', { description: 'changed', tags: [env] }));
      expect(await store.update(handler('tagged', { tags: [team] }))).toBe(true);
      expect((await store.list()).find((h) => h.name === 'tagged')?.tags).toEqual([team]);
      expect(await store.update(handler('tagged', { tags: [] }))).toBe(true);
      expect((await store.get('tagged'))?.tags ?? []).toEqual([]);
    });

    it('changes tags atomically, losing none of concurrent changes, and only of existing handlers', async () => {
      expect(await store.changeTags('absent', () => [{ key: 'k', value: 'v' }])).toBeUndefined();
      expect(await store.get('absent')).toBeUndefined();
      await store.create(handler('busy', { description: 'kept' }));
      const keys = ['k0', 'k1', 'k2', 'k3'];
      await Promise.all(
        keys.map((key) => store.changeTags('busy', (tags) => [...tags, { key, value: key }])),
      );
      const stored = await store.get('busy');
      expect(stored?.tags?.map((t) => t.key).sort()).toEqual(keys);
      expect(stored?.description).toBe('kept');
      expect(await store.changeTags('busy', () => [])).toEqual([]);
      expect((await store.get('busy'))?.tags ?? []).toEqual([]);
      expect(await store.remove('busy')).toBe(true);
      expect(await store.changeTags('busy', () => [])).toBeUndefined();
    });
  });
}
