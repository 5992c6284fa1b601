/**
 * DynamoDB adapters of the worker task queues and the poll data, sharing the "queues" table. Key
 * design: tables.ts. An entry's sort key is its order (readyKey), so a peek reads the table itself
 * in the order workers are served, and an entry costs one write to put and one to delete, with no
 * index write. Pushing a task with the same priority and visibility rewrites its entry; with other
 * ones it writes a second entry, which the caller removes (it knows the previous one from the task
 * row) or the claim drops as stale.
 */
import { DeleteCommand, type DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { PollData, PollDataStore, QueueEntry, TaskQueue } from '../ports.ts';
import { translate } from './errors.ts';
import { batchDelete, batchPut, type Item, queryAll, scanAll } from './paging.ts';
import { TTL_ATTRIBUTE } from './tables.ts';

const QUEUE_PREFIX = 'Q#';
/**
 * Partition keys per worker queue. A partition takes about 1,000 write units a second, and a task
 * costs its queue about 2 (entry put and delete, no index write), so one key would cap a task type
 * near 500 tasks a second; spread over QUEUE_SHARDS keys it takes four times that, ~2,000. The
 * shard is a hash of the task id: every entry of one task lands on the same key, and remove needs
 * no read.
 */
export const QUEUE_SHARDS = 4;
const POLL_PREFIX = 'P#';
/** Items a peek reads per page before the visibility filter (DynamoDB's Limit counts before it). */
const PEEK_PAGE = 100;
/**
 * Pages a peek reads at most. The filter skips entries that are not visible yet; when more than
 * PEEK_PAGE * PEEK_MAX_PAGES delayed entries of higher priority sit in front of the visible ones, a
 * peek answers fewer entries than exist (the next poll, after they turn visible, sees the rest).
 */
const PEEK_MAX_PAGES = 10;

/** FNV-1a of the task id, modulo QUEUE_SHARDS. */
export function queueShard(taskId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < taskId.length; i++) hash = Math.imul(hash ^ taskId.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % QUEUE_SHARDS;
}

/** "Q#<shard>#<queueName>": the shard comes first, so a queue name may hold any character. */
const queuePk = (queueName: string, shard: number) => `${QUEUE_PREFIX}${shard}#${queueName}`;
const SHARDS = Array.from({ length: QUEUE_SHARDS }, (_, n) => n);
/** The queue name of a queue entry's partition key. */
const queueNameOfPk = (pk: string) => pk.slice(pk.indexOf('#', QUEUE_PREFIX.length) + 1);
const digits = (value: number, width: number) => String(Math.max(0, Math.floor(value))).padStart(width, '0');
const clampPriority = (priority: number) => Math.min(99, Math.max(0, Math.floor(priority)));

/** Ascending = highest priority first, then soonest visible; the task id breaks ties. */
export const readyKey = (entry: QueueEntry) =>
  `${digits(99 - clampPriority(entry.priority), 2)}#${digits(entry.visibleAt, 13)}#${entry.taskId}`;

/**
 * The queues-table item of an entry, keyed by its order. It has no `readyKey` attribute, so it is
 * not in the retired `ready` LSI (an LSI is sparse) and costs no index write.
 */
export const queueItem = (entry: QueueEntry): Item => ({
  pk: queuePk(entry.queueName, queueShard(entry.taskId)),
  sk: readyKey(entry),
  queueName: entry.queueName,
  taskId: entry.taskId,
  workflowId: entry.workflowId,
  priority: entry.priority,
  visibleAt: entry.visibleAt,
});

/**
 * An entry read back, with the key that orders it. An entry written before entries were keyed by
 * their order has sk = its task id and still carries its `readyKey`: it is merged by that, and
 * marked `legacy` so that remove deletes it by its task id.
 */
function peekedOf(item: Item): { entry: QueueEntry; order: string } {
  const entry: QueueEntry = {
    queueName: String(item.queueName),
    taskId: String(item.taskId),
    workflowId: String(item.workflowId),
    priority: Number(item.priority),
    visibleAt: Number(item.visibleAt),
  };
  if (item.sk !== entry.taskId) return { entry, order: String(item.sk) };
  entry.legacy = true;
  return { entry, order: typeof item.readyKey === 'string' ? item.readyKey : readyKey(entry) };
}

export class DynamoTaskQueue implements TaskQueue {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async push(entries: readonly QueueEntry[]): Promise<void> {
    // The last push of a task in one call wins, as one by one on an adapter that keeps one entry
    // per task (and a batch may not name one key twice).
    const latest = new Map<string, QueueEntry>();
    for (const entry of entries) latest.set(`${entry.queueName}\u0000${entry.taskId}`, entry);
    const items = [...latest.values()].map(queueItem);
    await batchPut(this.client, this.table, items, 'queue push');
  }

  /**
   * Reads every shard's first `count` visible entries (one Query each, in parallel) and merges them
   * by their order: the first `count` of the merge are the queue's first `count`, so priority order
   * holds across shards exactly, and every shard is read on every poll (none starves). Entries of
   * the old layout (sk = task id) sit among the others in sort-key order, not in serving order,
   * until they drain: they may be served late, never lost.
   */
  async peek(queueName: string, count: number, now: number): Promise<QueueEntry[]> {
    const shards = await Promise.all(SHARDS.map((shard) => this.peekShard(queueName, shard, count, now)));
    return shards
      .flat()
      .sort((a, b) => compare(a.order, b.order))
      .slice(0, count)
      .map((e) => e.entry);
  }

  private async peekShard(
    queueName: string,
    shard: number,
    count: number,
    now: number,
  ): Promise<{ entry: QueueEntry; order: string }[]> {
    const out: { entry: QueueEntry; order: string }[] = [];
    let start: Item | undefined;
    for (let page = 0; page < PEEK_MAX_PAGES && out.length < count; page++) {
      const result = await this.client
        .send(
          new QueryCommand({
            TableName: this.table,
            KeyConditionExpression: 'pk = :pk',
            FilterExpression: 'visibleAt <= :now',
            ExpressionAttributeValues: { ':pk': queuePk(queueName, shard), ':now': now },
            ScanIndexForward: true,
            // Eventually consistent: half the read units of a consistent Query, and a peek is only
            // a hint (the row decides every claim). An entry pushed moments ago may be missed by
            // this look and found by the next; one removed moments ago may be seen and is dropped
            // (or lost to the claim's conditional write), as a concurrent poller's would be.
            ConsistentRead: false,
            Limit: Math.max(count, PEEK_PAGE),
            ExclusiveStartKey: start,
          }),
        )
        .catch((e: unknown) => translate(e, 'queue peek'));
      for (const item of result.Items ?? []) {
        if (out.length < count) out.push(peekedOf(item));
      }
      start = result.LastEvaluatedKey;
      if (!start) break;
    }
    return out;
  }

  async remove(entry: QueueEntry): Promise<void> {
    await this.client
      .send(new DeleteCommand({ TableName: this.table, Key: this.keyOf(entry) }))
      .catch((e: unknown) => translate(e, 'queue remove'));
  }

  /** One BatchWriteItem per 25 entries (a delete of an absent item costs a write all the same). */
  async removeAll(entries: readonly QueueEntry[]): Promise<void> {
    const keys = new Map<string, Item>();
    for (const entry of entries) {
      const key = this.keyOf(entry);
      keys.set(`${key.pk}\u0000${key.sk}`, key);
    }
    if (keys.size > 0) await batchDelete(this.client, this.table, [...keys.values()], 'queue remove');
  }

  /** The table key of an entry: its order, or its task id for an entry of the old layout. */
  private keyOf(entry: QueueEntry): Item {
    return {
      pk: queuePk(entry.queueName, queueShard(entry.taskId)),
      sk: entry.legacy ? entry.taskId : readyKey(entry),
    };
  }

  async size(queueName: string): Promise<number> {
    const counts = await Promise.all(SHARDS.map((shard) => this.shardSize(queueName, shard)));
    return counts.reduce((a, b) => a + b, 0);
  }

  private async shardSize(queueName: string, shard: number): Promise<number> {
    let total = 0;
    let start: Item | undefined;
    do {
      const page = await this.client
        .send(
          new QueryCommand({
            TableName: this.table,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': queuePk(queueName, shard) },
            Select: 'COUNT',
            ConsistentRead: true,
            ExclusiveStartKey: start,
          }),
        )
        .catch((e: unknown) => translate(e, 'queue size'));
      total += page.Count ?? 0;
      start = page.LastEvaluatedKey;
    } while (start);
    return total;
  }

  /** Reads the whole table: for the admin API and the UI, never on a worker's path. */
  async sizes(): Promise<Record<string, number>> {
    const items = await scanAll(
      this.client,
      {
        TableName: this.table,
        ProjectionExpression: 'pk',
        FilterExpression: 'begins_with(pk, :prefix)',
        ExpressionAttributeValues: { ':prefix': QUEUE_PREFIX },
      },
      'queue sizes',
    );
    const counts = new Map<string, number>();
    for (const item of items) {
      const name = queueNameOfPk(String(item.pk));
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    const out: Record<string, number> = {};
    for (const name of [...counts.keys()].sort()) out[name] = counts.get(name) ?? 0;
    return out;
  }
}

export class DynamoPollDataStore implements PollDataStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async record(data: PollData): Promise<void> {
    await this.client
      .send(
        new PutCommand({
          TableName: this.table,
          Item: {
            pk: `${POLL_PREFIX}${data.queueName}`,
            // The latest poll of a (queue, worker) replaces the previous one. The "W#" prefix keeps
            // a worker literally named "-" apart from polls without a worker id.
            sk: data.workerId ? `W#${data.workerId}` : '-',
            queueName: data.queueName,
            domain: data.domain,
            workerId: data.workerId,
            lastPollTime: data.lastPollTime,
            ...(data.expiresAt
              ? { expiresAt: data.expiresAt, [TTL_ATTRIBUTE]: Math.ceil(data.expiresAt / 1000) }
              : {}),
          },
        }),
      )
      .catch((e: unknown) => translate(e, 'poll data record'));
  }

  async list(queueName?: string): Promise<PollData[]> {
    const items =
      queueName === undefined
        ? // Every queue's poll data: a scan, for the admin API and the UI only.
          await scanAll(
            this.client,
            {
              TableName: this.table,
              FilterExpression: 'begins_with(pk, :prefix)',
              ExpressionAttributeValues: { ':prefix': POLL_PREFIX },
            },
            'poll data list',
          )
        : await queryAll(
            this.client,
            {
              TableName: this.table,
              KeyConditionExpression: 'pk = :pk',
              ExpressionAttributeValues: { ':pk': `${POLL_PREFIX}${queueName}` },
              ConsistentRead: true,
            },
            'poll data list',
          );
    return items.map(pollDataOf).sort((a, b) => compare(a.queueName, b.queueName));
  }
}

function pollDataOf(item: Item): PollData {
  const data: PollData = { queueName: String(item.queueName), lastPollTime: Number(item.lastPollTime) };
  if (typeof item.domain === 'string') data.domain = item.domain;
  if (typeof item.workerId === 'string') data.workerId = item.workerId;
  if (typeof item.expiresAt === 'number') data.expiresAt = item.expiresAt;
  return data;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
