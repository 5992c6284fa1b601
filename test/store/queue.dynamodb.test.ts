/**
 * The task queue and poll data contract against the DynamoDB adapters, talking over HTTP to an
 * in-process, in-memory dynalite started for this file. Each test gets its own tables (unique prefix).
 * Also the key design of the adapter itself: one queue's entries spread over QUEUE_SHARDS partition
 * keys, a peek merges the shards back into one priority order, entries are keyed by their order
 * and stay out of the retired `ready` LSI, and entries of the old layout (sort key = task id,
 * written before this key design) are still served and removed.
 */
import { PutItemCommand, QueryCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { QUEUE_SHARDS, queueItem, queueShard, readyKey } from '../../lib/store/dynamodb/queue.ts';
import type { TableNames } from '../../lib/store/dynamodb/tables.ts';
import type { QueueEntry, Stores } from '../../lib/store/ports.ts';
import { runOnDynalite, startTestDynamo, type TestDynamo } from '../helpers/dynamo.ts';
import { entryOf, queueStoreContract } from './queue.contract.ts';

runOnDynalite(queueStoreContract);

describe('DynamoDB worker queue sharding', () => {
  let dynamo: TestDynamo;
  beforeAll(async () => {
    dynamo = await startTestDynamo();
  });
  afterAll(async () => {
    await dynamo?.close();
  });
  let stores: Stores;
  let tables: TableNames;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ stores, tables, cleanup } = await dynamo.freshStores());
  });
  afterEach(async () => {
    await cleanup();
  });

  const T0 = 1_700_000_000_000;

  it('spreads one queue over every shard key and peeks it back in one priority order', async () => {
    const entries = Array.from({ length: 40 }, (_, i) =>
      entryOf('hot', `task-${i}`, { priority: i % 7, visibleAt: T0 - i }),
    );
    await stores.queue.push(entries);

    const scanned = await dynamo.admin.send(new ScanCommand({ TableName: tables.queues }));
    const keys = new Set((scanned.Items ?? []).map((item) => item.pk?.S));
    expect(keys.size).toBe(QUEUE_SHARDS);

    const expected = [...entries]
      .sort((a, b) => b.priority - a.priority || a.visibleAt - b.visibleAt)
      .map((e) => e.taskId);
    expect((await stores.queue.peek('hot', 40, T0)).map((e) => e.taskId)).toEqual(expected);
    expect((await stores.queue.peek('hot', 5, T0)).map((e) => e.taskId)).toEqual(expected.slice(0, 5));
    expect(await stores.queue.size('hot')).toBe(40);
    expect(await stores.queue.sizes()).toEqual({ hot: 40 });
    await stores.queue.remove(entries[0] as QueueEntry);
    expect(await stores.queue.size('hot')).toBe(39);
  });

  it('keys an entry by its order, with no readyKey attribute, so the ready LSI stays empty', async () => {
    const entries = Array.from({ length: 12 }, (_, i) =>
      entryOf('lean', `task-${i}`, { priority: i % 3, visibleAt: T0 + i }),
    );
    await stores.queue.push(entries);
    await stores.queue.push([entryOf('lean', 'task-0', { priority: 0, visibleAt: T0 + 500 })]);

    const items = await scanItems(tables.queues);
    expect(items).toHaveLength(13);
    for (const item of items) {
      expect(item).not.toHaveProperty('readyKey');
      expect(item.sk).toBe(readyKey(item as unknown as QueueEntry));
    }
    for (let shard = 0; shard < QUEUE_SHARDS; shard++) {
      const indexed = await dynamo.admin.send(
        new QueryCommand({
          TableName: tables.queues,
          IndexName: 'ready',
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: marshall({ ':pk': `Q#${shard}#lean` }),
          ConsistentRead: true,
        }),
      );
      expect(indexed.Count).toBe(0);
    }
    expect(await stores.queue.size('lean')).toBe(13);
  });

  it('serves and removes entries written before entries were keyed by their order', async () => {
    // The old layout: sort key = task id, ordered by the readyKey attribute (the `ready` LSI).
    const old = [
      entryOf('mixed', 'old-high', { priority: 80, visibleAt: T0 - 30 }),
      entryOf('mixed', 'old-low', { priority: 1, visibleAt: T0 - 40 }),
      entryOf('mixed', 'old-later', { priority: 50, visibleAt: T0 + 60_000 }),
    ];
    for (const entry of old) {
      const item = { ...queueItem(entry), sk: entry.taskId, readyKey: readyKey(entry) };
      await dynamo.admin.send(new PutItemCommand({ TableName: tables.queues, Item: marshall(item) }));
    }
    await stores.queue.push([
      entryOf('mixed', 'new-mid', { priority: 50, visibleAt: T0 - 10 }),
      entryOf('mixed', 'new-top', { priority: 99, visibleAt: T0 }),
    ]);

    const peeked = await stores.queue.peek('mixed', 10, T0);

    expect(peeked.map((e) => e.taskId)).toEqual(['new-top', 'old-high', 'new-mid', 'old-low']);
    expect(peeked.find((e) => e.taskId === 'old-high')).toEqual({ ...old[0], legacy: true });
    expect(peeked.find((e) => e.taskId === 'new-mid')).not.toHaveProperty('legacy');
    for (const entry of peeked) await stores.queue.remove(entry);
    expect((await scanItems(tables.queues)).map((item) => item.taskId)).toEqual(['old-later']);
    // A row queued before the upgrade names no visibility: its entry is removed by its task id, in
    // a batch too (what follows a run's end).
    await stores.queue.removeAll([{ ...entryOf('mixed', 'old-later'), legacy: true }]);
    expect(await stores.queue.size('mixed')).toBe(0);
  });

  it('puts every entry of one task in one shard whatever its order', async () => {
    await stores.queue.push([entryOf('one', 'the-task', { priority: 1, visibleAt: T0 })]);
    await stores.queue.push([entryOf('one', 'the-task', { priority: 90, visibleAt: T0 + 9 })]);

    const items = await scanItems(tables.queues);
    expect(items.map((item) => item.pk)).toEqual([
      `Q#${queueShard('the-task')}#one`,
      `Q#${queueShard('the-task')}#one`,
    ]);
  });

  async function scanItems(table: string | undefined): Promise<Record<string, unknown>[]> {
    const scanned = await dynamo.admin.send(new ScanCommand({ TableName: table, ConsistentRead: true }));
    return (scanned.Items ?? []).map((item) => unmarshall(item));
  }
});
