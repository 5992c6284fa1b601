/**
 * The schema read cache on a fake clock (docs/api.md "Limits"): hits within the ttl, expiry after it,
 * invalidation by saves and deletes on this node (and only after the ttl on another), the size
 * bound with by-version and latest entries counted apart, ttl 0 disabling it, and the ttl's units.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, configOf } from '../../lib/config/load.ts';
import { silentLogger } from '../../lib/log/logger.ts';
import { ManualClock } from '../../lib/model/clock.ts';
import { LocalDecisionQueue } from '../../lib/queue/local.ts';
import { createServices } from '../../lib/runtime/services.ts';
import { createMemoryStores } from '../../lib/runtime/stores.ts';
import { schemaRegistryOf } from '../../lib/schemas/capability.ts';
import type { SchemaRecord } from '../../lib/schemas/model.ts';
import type { SchemaStore } from '../../lib/schemas/ports.ts';
import { SchemaService } from '../../lib/schemas/service.ts';
import { MemorySchemaStore } from '../../lib/schemas/store/memory.ts';

/** A memory store that counts reads, so a test can tell a cache hit from a store read. */
class CountingStore extends MemorySchemaStore {
  reads = 0;
  override async get(name: string, version?: number): Promise<SchemaRecord | undefined> {
    this.reads += 1;
    return super.get(name, version);
  }
}

const schema = (name: string, version = 1, title = 'first') => ({
  name,
  version,
  type: 'JSON',
  data: { $schema: 'https://json-schema.org/draft/2020-12/schema', title },
});

function rig(ttlMs: number, maxSize = 1000, store: SchemaStore = new CountingStore()) {
  const clock = new ManualClock();
  return {
    clock,
    store: store as CountingStore,
    service: new SchemaService(store, clock, { ttlMs, maxSize }),
  };
}

describe('schema cache', () => {
  it('serves repeated reads from the cache until the ttl passes', async () => {
    const { clock, store, service } = rig(30_000);
    await service.save(schema('a'), false);
    const before = store.reads;
    await service.find('a');
    await service.find('a');
    await service.find('a', 1);
    await service.find('a', 1);
    expect(store.reads - before).toBe(2);
    expect(service.cache.hits).toBe(2);
    clock.advance(29_999);
    await service.find('a');
    expect(store.reads - before).toBe(2);
    clock.advance(1);
    await service.find('a');
    expect(store.reads - before).toBe(3);
  });

  it('drops a name on save and delete on this node; another node sees the change after the ttl', async () => {
    const store = new CountingStore();
    const clock = new ManualClock();
    const here = new SchemaService(store, clock, { ttlMs: 10_000, maxSize: 1000 });
    const there = new SchemaService(store, clock, { ttlMs: 10_000, maxSize: 1000 });
    await here.save(schema('b', 1, 'old'), false);
    expect((await here.find('b'))?.data?.title).toBe('old');
    expect((await there.find('b'))?.data?.title).toBe('old');
    await here.save(schema('b', 1, 'new'), false);
    expect((await here.find('b'))?.data?.title).toBe('new');
    expect((await there.find('b'))?.data?.title).toBe('old');
    clock.advance(10_000);
    expect((await there.find('b'))?.data?.title).toBe('new');
    await here.delete('b', 1);
    expect(await here.find('b')).toBeUndefined();
    expect(await here.find('b', 1)).toBeUndefined();
  });

  it('keeps at most max-size entries, latest and by-version counted apart, least recently used first', async () => {
    const { store, service } = rig(60_000, 3);
    await service.save([schema('c'), schema('d')], false);
    await service.find('c');
    await service.find('c', 1);
    await service.find('d');
    expect(service.cache.size).toBe(3);
    await service.find('c');
    await service.find('d', 1);
    expect(service.cache.size).toBe(3);
    const reads = store.reads;
    await service.find('c');
    expect(store.reads).toBe(reads);
    await service.find('c', 1);
    expect(store.reads).toBe(reads + 1);
  });

  it('reads the store every time with ttl 0', async () => {
    const { store, service } = rig(0);
    await service.save(schema('e'), false);
    const before = store.reads;
    await service.find('e');
    await service.find('e');
    expect(store.reads - before).toBe(2);
    expect(service.cache.size).toBe(0);
  });

  it('reads the ttl as seconds, or with a unit', () => {
    expect(configOf({ 'service.app.schema-cache.ttl': 30 }).number('service.app.schema-cache.ttl')).toBe(
      30_000,
    );
    expect(configOf({ 'service.app.schema-cache.ttl': '30s' }).number('service.app.schema-cache.ttl')).toBe(
      30_000,
    );
    expect(configOf({ 'service.app.schema-cache.ttl': '500ms' }).number('service.app.schema-cache.ttl')).toBe(
      500,
    );
    expect(configOf({ 'service.app.schema-cache.ttl': '2m' }).number('service.app.schema-cache.ttl')).toBe(
      120_000,
    );
    expect(configOf().number('service.app.schema-cache.ttl')).toBe(0);
    expect(() => configOf({ 'service.app.schema-cache.ttl': '30 minutes' })).toThrow(ConfigError);
  });

  it('is shared by the routes and the enforcer of one host: a save through either invalidates both', async () => {
    const clock = new ManualClock();
    const stores = createMemoryStores();
    const services = createServices({
      config: configOf({ 'service.app.schema-cache.ttl': '1h' }),
      logger: silentLogger,
      clock,
      stores,
      decisions: new LocalDecisionQueue(clock, silentLogger),
      scripts: { evaluate: async () => undefined, close: async () => {} } as never,
    });
    const registry = schemaRegistryOf(services.stores.schemas, clock, services.config);
    expect(schemaRegistryOf(services.stores.schemas, clock, services.config)).toBe(registry);
    await registry.save(
      { ...schema('f'), data: { $schema: 'https://json-schema.org/draft/2020-12/schema', required: ['x'] } },
      false,
    );
    const def = {
      name: 'wf',
      version: 1,
      tasks: [{ name: 't', taskReferenceName: 't', type: 'SIMPLE' }],
      inputSchema: { name: 'f' },
    };
    await expect(services.engine.starter.start({ name: 'wf', workflowDef: def, input: {} })).rejects.toThrow(
      /\/x is required/,
    );
    await registry.save(
      { ...schema('f'), data: { $schema: 'https://json-schema.org/draft/2020-12/schema' } },
      false,
    );
    await expect(
      services.engine.starter.start({ name: 'wf', workflowDef: def, input: {} }),
    ).resolves.toBeTruthy();
  });
});

describe('rule 7: storage', () => {
  it('refuses to start with a wide-column database type, naming the property', () => {
    const make = (type: string) => () =>
      createServices({
        config: configOf({ 'service.db.type': type }),
        logger: silentLogger,
        clock: new ManualClock(),
        stores: createMemoryStores(),
        decisions: new LocalDecisionQueue(new ManualClock(), silentLogger),
        scripts: {} as never,
      });
    expect(make('cassandra')).toThrow(/service\.db\.type=cassandra is a wide-column database/);
    expect(make('cassandra')).toThrow(ConfigError);
    expect(make('postgres')).not.toThrow();
  });
});
