/**
 * DynamoDB adapter of the poll-time limits (lib/store/ports.ts PollLimitStore), in the queues table
 * (key design: tables.ts):
 *   slots of a definition  pk = "L#<name>"  sk = "SLOTS"   holders (string set of [workflowId, taskId] as
 * JSON)   a rate window          pk = "R#<name>"  sk = "<windowStart, 13 digits>"   n (N), ttl
 * A slot is taken by one conditional UpdateItem that adds the holder only while the set holds fewer
 * than the limit, so concurrent polls in any number of processes never exceed it; a window's count
 * grows the same way. One item per limited definition: it takes ~1,000 writes/s (two per task), far
 * above what a concurrency- or rate-limited type is meant to run at.
 */
import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { PollLimitStore, SlotHolder } from '../ports.ts';
import { isConditionFailure, translate } from './errors.ts';

const slotsKey = (name: string) => ({ pk: `L#${name}`, sk: 'SLOTS' });
const encode = (holder: SlotHolder) => JSON.stringify([holder.workflowId, holder.taskId]);

function decode(value: string): SlotHolder | undefined {
  try {
    const [workflowId, taskId] = JSON.parse(value) as unknown[];
    return typeof workflowId === 'string' && typeof taskId === 'string' ? { workflowId, taskId } : undefined;
  } catch {
    return undefined;
  }
}

export class DynamoPollLimitStore implements PollLimitStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async acquire(name: string, limit: number, holder: SlotHolder): Promise<boolean> {
    const member = encode(holder);
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: slotsKey(name),
          UpdateExpression: 'ADD holders :h',
          // The condition is the limit: a holder joins only while fewer than `limit` hold slots.
          ConditionExpression:
            'attribute_not_exists(holders) OR (size(holders) < :limit AND NOT contains(holders, :m))',
          ExpressionAttributeValues: { ':h': new Set([member]), ':limit': limit, ':m': member },
        }),
      );
      return true;
    } catch (error) {
      if (!isConditionFailure(error)) translate(error, 'concurrency slot acquire');
      // Full, or this task already holds a slot (a retried claim).
      return (await this.holders(name)).some((h) => h.taskId === holder.taskId);
    }
  }

  async release(name: string, holder: SlotHolder): Promise<void> {
    await this.client
      .send(
        new UpdateCommand({
          TableName: this.table,
          Key: slotsKey(name),
          UpdateExpression: 'DELETE holders :h',
          ExpressionAttributeValues: { ':h': new Set([encode(holder)]) },
        }),
      )
      .catch((e: unknown) => translate(e, 'concurrency slot release'));
  }

  async holders(name: string): Promise<SlotHolder[]> {
    const result = await this.client
      .send(new GetCommand({ TableName: this.table, Key: slotsKey(name), ConsistentRead: true }))
      .catch((e: unknown) => translate(e, 'concurrency slots read'));
    const set = result.Item?.holders;
    if (!(set instanceof Set)) return [];
    return [...set].flatMap((value) => {
      const holder = typeof value === 'string' ? decode(value) : undefined;
      return holder ? [holder] : [];
    });
  }

  async countInWindow(name: string, windowStart: number, limit: number, expiresAt: number): Promise<boolean> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: `R#${name}`, sk: String(Math.max(0, Math.floor(windowStart))).padStart(13, '0') },
          UpdateExpression: 'ADD n :one SET #ttl = :ttl',
          // The condition is the rate: a hand-out counts only while fewer than `limit` did.
          ConditionExpression: 'attribute_not_exists(n) OR n < :limit',
          ExpressionAttributeNames: { '#ttl': 'ttl' },
          ExpressionAttributeValues: { ':one': 1, ':limit': limit, ':ttl': Math.ceil(expiresAt / 1000) },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      translate(error, 'rate window count');
    }
  }
}
