/**
 * The task queue and poll data contract against the DynamoDB adapters, talking over HTTP to an
 * in-process, in-memory dynalite started for this file. Each test gets its own tables (unique prefix).
 * Also the key design of the adapter itself: one queue's entries spread over QUEUE_SHARDS partition
 * keys, and a peek merges the shards back into one priority order.
 */
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_SHARDS } from '../../lib/store/dynamodb/queue.ts';
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

  it('spreads one queue over every shard key and peeks it back in one priority order', async () => {
    const { stores, tables, cleanup } = await dynamo.freshStores();
    try {
      const T0 = 1_700_000_000_000;
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
      await stores.queue.remove('hot', 'task-0');
      expect(await stores.queue.size('hot')).toBe(39);
    } finally {
      await cleanup();
    }
  });
});
