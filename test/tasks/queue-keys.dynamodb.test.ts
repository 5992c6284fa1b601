/**
 * Worker queue entries keyed by their order (lib/store/dynamodb/queue.ts), through the engine over
 * the DynamoDB stores (dynalite): a task handed back with a callback delay is not handed out before
 * it; a task queued again gets one entry, its previous one removed by key (IN_PROGRESS before it
 * was polled, reset-callbacks, requeue twice); an entry its row no longer names is dropped by a
 * poll, never handed out early; a task completed without a poll leaves no entry. A task queued
 * before this key design (an entry keyed by task id, a row naming no visibility) needs no
 * migration: it is handed out, completed or requeued, and its entry goes.
 */
import { DeleteItemCommand, PutItemCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queueEntryOf } from '../../lib/engine/queues.ts';
import type { TaskRecord } from '../../lib/model/execution.ts';
import { queueItem, readyKey } from '../../lib/store/dynamodb/queue.ts';
import { type FreshStores, useTestDynamo } from '../helpers/dynamo.ts';
import { type EngineHarness, engineHarness } from '../helpers/engine.ts';
import { simpleTask, workflowDef } from '../helpers/fixtures.ts';

const TYPE = 'qk_task';

describe('worker queue keys on DynamoDB, through the engine', () => {
  const dynamo = useTestDynamo();
  let fresh: FreshStores;
  let h: EngineHarness;
  beforeEach(async () => {
    fresh = await dynamo().freshStores();
    h = await engineHarness({ stores: fresh.stores });
    await h.register(workflowDef({ name: 'qk_wf', tasks: [simpleTask('qk')] }));
  });
  afterEach(async () => {
    await h.close();
    await fresh.cleanup();
  });

  /** The stored queue entries: their sort keys and visibility. */
  async function entries(): Promise<{ sk: string; visibleAt: number }[]> {
    const scanned = await dynamo().admin.send(
      new ScanCommand({ TableName: fresh.tables.queues, ConsistentRead: true }),
    );
    return (scanned.Items ?? [])
      .map((item) => unmarshall(item))
      .filter((item) => String(item.pk).startsWith('Q#'))
      .map((item) => ({ sk: String(item.sk), visibleAt: Number(item.visibleAt) }));
  }

  /** Reports IN_PROGRESS with a callback delay, as a worker would. */
  async function handBack(task: TaskRecord, callbackAfterSeconds: number): Promise<void> {
    await h.services.engine.tasks.update({
      workflowInstanceId: task.workflowInstanceId,
      taskId: task.taskId,
      status: 'IN_PROGRESS',
      callbackAfterSeconds,
    });
    await h.settle();
  }

  async function rowOf(workflowId: string): Promise<TaskRecord> {
    return (await h.task(workflowId, 'qk')) as TaskRecord;
  }

  it('does not hand out a task a worker handed back before its callback delay passes', async () => {
    const id = await h.start('qk_wf');
    const polled = (await h.poll(TYPE)) as TaskRecord;
    expect(await entries()).toEqual([]);

    await handBack(polled, 30);

    const row = await rowOf(id);
    expect(row.status).toBe('SCHEDULED');
    expect(row.visibleAt).toBe(h.clock.now() + 30_000);
    expect(await entries()).toEqual([{ sk: readyKey(queueEntryOf(row)), visibleAt: h.clock.now() + 30_000 }]);
    expect(await h.poll(TYPE)).toBeUndefined();
    await h.advance(29_999);
    expect(await h.poll(TYPE)).toBeUndefined();
    await h.advance(1);
    expect((await h.poll(TYPE))?.taskId).toBe(polled.taskId);
    expect(await entries()).toEqual([]);
  });

  it('moves the entry of a task handed back before it was polled, leaving no early one', async () => {
    const id = await h.start('qk_wf');
    const scheduled = await rowOf(id);
    expect(await entries()).toEqual([{ sk: readyKey(queueEntryOf(scheduled)), visibleAt: h.clock.now() }]);

    await handBack(scheduled, 60);

    expect(await entries()).toEqual([
      { sk: readyKey(queueEntryOf(await rowOf(id))), visibleAt: h.clock.now() + 60_000 },
    ]);
    expect(await h.poll(TYPE)).toBeUndefined();
    await h.advance(60_000);
    expect((await h.poll(TYPE))?.taskId).toBe(scheduled.taskId);
  });

  it('makes one entry however often a task is requeued, in progress or scheduled', async () => {
    const id = await h.start('qk_wf');
    await h.poll(TYPE);
    h.clock.advance(5_000);

    expect(await h.services.engine.tasks.requeue(TYPE)).toBe(1);
    h.clock.advance(5_000);
    expect(await h.services.engine.tasks.requeue(TYPE)).toBe(1);

    const row = await rowOf(id);
    expect(row.status).toBe('SCHEDULED');
    expect(row.visibleAt).toBe(h.clock.now() - 5_000);
    expect(await entries()).toEqual([{ sk: readyKey(queueEntryOf(row)), visibleAt: row.visibleAt }]);
    expect((await h.poll(TYPE))?.taskId).toBe(row.taskId);
    expect(await h.poll(TYPE)).toBeUndefined();
  });

  it('makes the entry of a reset callback visible now and deletes the delayed one', async () => {
    const id = await h.start('qk_wf');
    await handBack((await h.poll(TYPE)) as TaskRecord, 3_600);
    expect(await h.poll(TYPE)).toBeUndefined();

    await h.services.engine.operations.resetCallbacks(id);

    expect(await entries()).toEqual([
      { sk: readyKey(queueEntryOf(await rowOf(id))), visibleAt: h.clock.now() },
    ]);
    expect((await h.poll(TYPE))?.workflowInstanceId).toBe(id);
  });

  it('drops a visible entry its row no longer names, and hands the task out at the row time', async () => {
    const id = await h.start('qk_wf');
    await handBack((await h.poll(TYPE)) as TaskRecord, 60);
    const row = await rowOf(id);
    // A superseded entry, visible now (e.g. left by a crash between a re-push and the delete).
    await fresh.stores.queue.push([{ ...queueEntryOf(row), visibleAt: h.clock.now() - 1 }]);
    expect(await entries()).toHaveLength(2);

    expect(await h.poll(TYPE)).toBeUndefined();

    expect(await entries()).toEqual([{ sk: readyKey(queueEntryOf(row)), visibleAt: row.visibleAt }]);
    expect((await rowOf(id)).status).toBe('SCHEDULED');
    await h.advance(60_000);
    expect((await h.poll(TYPE))?.taskId).toBe(row.taskId);
  });

  it('serves, late, an entry later than its row says (a crash before reset-callbacks pushed), never dropping it', async () => {
    const id = await h.start('qk_wf');
    await handBack((await h.poll(TYPE)) as TaskRecord, 60);
    const row = await rowOf(id);
    // What reset-callbacks commits before its push: the row visible now; the entry still at +60 s.
    await fresh.stores.executions.updateTask(
      { ...row, callbackAfterSeconds: 0, visibleAt: h.clock.now(), rev: row.rev + 1 },
      row.rev,
    );

    expect(await h.poll(TYPE)).toBeUndefined();
    expect(await entries()).toHaveLength(1);
    await h.advance(60_000);
    expect((await h.poll(TYPE))?.taskId).toBe(row.taskId);
  });

  it('removes the entry of a task completed without being polled', async () => {
    const id = await h.start('qk_wf');
    expect(await entries()).toHaveLength(1);

    await h.complete(await rowOf(id), { done: true });

    expect(await entries()).toEqual([]);
    expect((await h.run(id)).status).toBe('COMPLETED');
  });

  describe('a task queued before entries were keyed by their order', () => {
    /** Turns a freshly queued task into one queued by the previous version: entry and row. */
    async function queuedBefore(workflowId: string): Promise<TaskRecord> {
      const row = await rowOf(workflowId);
      const entry = queueEntryOf(row);
      const item = queueItem(entry);
      await dynamo().admin.send(
        new DeleteItemCommand({
          TableName: fresh.tables.queues,
          Key: marshall({ pk: item.pk, sk: item.sk }),
        }),
      );
      const old = { ...item, sk: entry.taskId, readyKey: readyKey(entry) };
      await dynamo().admin.send(new PutItemCommand({ TableName: fresh.tables.queues, Item: marshall(old) }));
      const before = { ...row, visibleAt: undefined, rev: row.rev + 1 };
      await fresh.stores.executions.updateTask(before, row.rev);
      expect(await entries()).toEqual([{ sk: entry.taskId, visibleAt: entry.visibleAt }]);
      return before;
    }

    it('is handed out, and its entry removed by its task id', async () => {
      const id = await h.start('qk_wf');
      const before = await queuedBefore(id);

      expect((await h.poll(TYPE))?.taskId).toBe(before.taskId);

      expect(await entries()).toEqual([]);
    });

    it('leaves no entry when completed without a poll', async () => {
      const id = await h.start('qk_wf');
      const before = await queuedBefore(id);

      await h.complete(before, { done: true });

      expect(await entries()).toEqual([]);
      expect((await h.run(id)).status).toBe('COMPLETED');
    });

    it('moves to the new layout when requeued', async () => {
      const id = await h.start('qk_wf');
      await queuedBefore(id);

      expect(await h.services.engine.tasks.requeue(TYPE)).toBe(1);

      const row = await rowOf(id);
      expect(row.visibleAt).toBe(h.clock.now());
      expect(await entries()).toEqual([{ sk: readyKey(queueEntryOf(row)), visibleAt: row.visibleAt }]);
      expect((await h.poll(TYPE))?.taskId).toBe(row.taskId);
      expect(await entries()).toEqual([]);
    });
  });
});
