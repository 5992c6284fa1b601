// The indexer's mapping: executions stream records (as DynamoDB Streams sends them) to index operations.
import { marshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { searchIndexer } from '../../../lib/jobs/search-indexer.ts';
import { createLogger } from '../../../lib/log/logger.ts';
import type { IndexOp, SearchIndexWriter } from '../../../lib/search/ports.ts';
import {
  type ExecutionStreamRecord,
  executionChangesOf,
} from '../../../lib/store/dynamodb/execution-changes.ts';
import {
  idempotencyKey,
  logItem,
  taskItem,
  taskKey,
  workflowItem,
  workflowKey,
} from '../../../lib/store/dynamodb/execution-items.ts';
import { taskOf, workflowOf } from '../../store/executions.contract.ts';

const T0 = 1_700_000_000_000;

type Item = Record<string, unknown>;
const image = (item: Item) => marshall(item, { removeUndefinedValues: true }) as Record<string, unknown>;
const put = (item: Item, eventName: 'INSERT' | 'MODIFY' = 'MODIFY'): ExecutionStreamRecord => ({
  eventName,
  dynamodb: { Keys: image({ pk: item.pk, sk: item.sk }), NewImage: image(item) },
});
const removed = (keys: Item): ExecutionStreamRecord => ({
  eventName: 'REMOVE',
  dynamodb: { Keys: image(keys) },
});
/** A TTL deletion: DynamoDB's own REMOVE, which names the service as the user. */
const expired = (keys: Item) => ({
  ...removed(keys),
  userIdentity: { type: 'Service', principalId: 'dynamodb.amazonaws.com' },
});

const run = workflowOf('wf-1', {
  workflowName: 'orders',
  status: 'COMPLETED',
  createTime: T0,
  updateTime: T0 + 50,
  endTime: T0 + 100,
  correlationId: 'c-1',
  input: { sku: 'needle-42' },
  expiresAt: T0 + 86_400_000,
});
const task = taskOf('wf-1', 'task-1', 1, { taskType: 'HTTP', status: 'IN_PROGRESS', startTime: T0 + 5 });

class RecordingIndex implements SearchIndexWriter {
  readonly batches: IndexOp[][] = [];
  async write(ops: readonly IndexOp[]): Promise<void> {
    this.batches.push([...ops]);
  }
}

async function indexed(records: ExecutionStreamRecord[]): Promise<IndexOp[]> {
  const index = new RecordingIndex();
  await searchIndexer.handle(executionChangesOf(records), {
    index: () => index,
    expiredRuns: () => {
      throw new Error('the search indexer reads no table');
    },
    logger: createLogger({ level: 'error', format: 'json' }),
  });
  expect(index.batches).toHaveLength(1);
  return index.batches[0] ?? [];
}

describe('search indexer documents', () => {
  it('indexes a run as a WorkflowSummary-shaped document with its free text and expiry', async () => {
    const [op] = await indexed([put(workflowItem(run), 'INSERT')]);
    expect(op).toEqual({
      kind: 'workflow',
      id: 'wf-1',
      doc: expect.objectContaining({
        workflowId: 'wf-1',
        workflowType: 'orders',
        version: 1,
        status: 'COMPLETED',
        correlationId: 'c-1',
        startTime: T0,
        updateTime: T0 + 50,
        endTime: T0 + 100,
        executionTime: 100,
        expiresAt: T0 + 86_400_000,
      }),
    });
    expect(op?.doc?.text).toContain('needle-42');
  });

  it('indexes a task row as a TaskSummary-shaped document keyed by task id', async () => {
    const [op] = await indexed([put(taskItem(task))]);
    expect(op).toEqual({
      kind: 'task',
      id: 'task-1',
      doc: expect.objectContaining({
        taskId: 'task-1',
        taskType: 'HTTP',
        workflowId: 'wf-1',
        workflowType: 'order_flow',
        status: 'IN_PROGRESS',
        scheduledTime: task.scheduledTime,
        startTime: T0 + 5,
        queueWaitTime: T0 + 5 - task.scheduledTime,
      }),
    });
  });

  it('deletes the documents of a removed run and task row, and of a run TTL expired', async () => {
    const ops = await indexed([
      removed(workflowKey('wf-1')),
      removed(taskKey('wf-1', 'task-1')),
      expired(workflowKey('wf-2')),
    ]);
    expect(ops).toEqual([
      { kind: 'workflow', id: 'wf-1', doc: undefined },
      { kind: 'task', id: 'task-1', doc: undefined },
      { kind: 'workflow', id: 'wf-2', doc: undefined },
    ]);
  });

  it('skips task logs and idempotency claims, which search does not hold', async () => {
    const log = logItem({ taskId: 'task-1', log: 'hello', createdTime: T0 }, 0, 'abc');
    const claim = { ...idempotencyKey('orders', 'key-1'), workflowId: 'wf-1' };
    expect(await indexed([put(log, 'INSERT'), put(claim, 'INSERT')])).toEqual([]);
  });

  it('keeps only the last change of each document in a batch, in the order of those last changes', async () => {
    const running = workflowItem({ ...run, status: 'RUNNING', endTime: 0, rev: 1 });
    const done = workflowItem({ ...run, rev: 2 });
    const ops = await indexed([
      put(running, 'INSERT'),
      put(taskItem(task), 'INSERT'),
      put(done),
      removed(taskKey('wf-1', 'task-1')),
    ]);
    expect(ops.map((op) => [op.kind, op.id, op.doc?.status])).toEqual([
      ['workflow', 'wf-1', 'COMPLETED'],
      ['task', 'task-1', undefined],
    ]);
    // A run removed and started again under its id (a rerun keeps the id) ends indexed.
    const again = await indexed([removed(workflowKey('wf-1')), put(running, 'INSERT')]);
    expect(again.map((op) => [op.id, op.doc?.status])).toEqual([['wf-1', 'RUNNING']]);
  });
});
