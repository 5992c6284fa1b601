/**
 * DynamoDB adapter of the workflow message queues, in their own table (messages capability).
 *
 * messages (on-demand; TTL attribute `ttl`):
 *   queue count  pk = "<workflowId>"  sk = "#count"   attributes: n (N) — live messages, hidden ones too
 *   message      pk = "<workflowId>"  sk = "M#<seq>"  attributes: body (JSON), expiresAt (N, ms),
 *                ttl (N, s), unconfirmed (present until the push confirms it), claimedBy (a pull's task id)
 *   - add: PutItem the hidden message, then UpdateItem ADD n 1 conditional on n < limit: concurrent
 *     pushes serialize on the count item, so the bound is exact. A refused count first drops the
 *     queue's expired messages (DeleteItem returning the old item, so each is uncounted once) and
 *     tries again; still refused, the message is deleted and the push is 'full'.
 *   - confirm: UpdateItem REMOVE unconfirmed.  - withdraw: DeleteItem (ALL_OLD), then ADD n -1 if it was
 * there.   - peek: Query pk, begins_with "M#", oldest first; expired and hidden messages are filtered here
 *     (DynamoDB deletes expired items lazily, dynalite never).
 *   - claim: UpdateItem SET claimedBy conditional on attribute_not_exists(claimedBy), for the whole
 *     batch at once, then one ADD n -k for the k it won; settle: BatchWriteItem deletes the
 *     delivered, REMOVE claimedBy (conditional on the claimer) the rest at once, then one ADD n +k.
 *   - delete the queue: Query pk, BatchWriteItem deletes.
 */
import { DeleteCommand, type DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure, translate } from '../../store/dynamodb/errors.ts';
import { batchDelete, type Item, queryAll } from '../../store/dynamodb/paging.ts';
import { TTL_ATTRIBUTE } from '../../store/dynamodb/tables.ts';
import type { AddOutcome, MessageStore, QueuedMessage } from '../ports.ts';

const COUNT_SK = '#count';
const MESSAGE_PREFIX = 'M#';
const messageKey = (workflowId: string, seq: string) => ({ pk: workflowId, sk: `${MESSAGE_PREFIX}${seq}` });
const isFree = (item: Item, now: number) =>
  item.unconfirmed === undefined && item.claimedBy === undefined && Number(item.expiresAt) > now;
const messageOf = (item: Item): QueuedMessage => JSON.parse(String(item.body)) as QueuedMessage;

export class DynamoMessageStore implements MessageStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async add(message: QueuedMessage, limit: number, now: number): Promise<AddOutcome> {
    const key = messageKey(message.workflowId, message.seq);
    await this.client
      .send(
        new PutCommand({
          TableName: this.table,
          Item: {
            ...key,
            body: JSON.stringify(message),
            expiresAt: message.expiresAt,
            [TTL_ATTRIBUTE]: Math.ceil(message.expiresAt / 1000),
            unconfirmed: true,
          },
        }),
      )
      .catch((e: unknown) => translate(e, 'message put'));
    if (await this.count(message.workflowId, 1, limit)) return 'added';
    await this.dropExpired(message.workflowId, now);
    if (await this.count(message.workflowId, 1, limit)) return 'added';
    await this.client
      .send(new DeleteCommand({ TableName: this.table, Key: key }))
      .catch((e: unknown) => translate(e, 'message delete'));
    return 'full';
  }

  async confirm(workflowId: string, seq: string): Promise<void> {
    await this.client
      .send(
        new UpdateCommand({
          TableName: this.table,
          Key: messageKey(workflowId, seq),
          UpdateExpression: 'REMOVE unconfirmed',
          ConditionExpression: 'attribute_exists(pk)',
        }),
      )
      .catch((e: unknown) => {
        // The queue was deleted meanwhile (the run ended): nothing to show.
        if (!isConditionFailure(e)) translate(e, 'message confirm');
      });
  }

  async withdraw(workflowId: string, seq: string): Promise<void> {
    await this.remove(workflowId, seq);
  }

  async peek(workflowId: string, now: number, limit: number): Promise<QueuedMessage[]> {
    const items = await this.items(workflowId);
    return items
      .filter((item) => isFree(item, now))
      .slice(0, limit)
      .map(messageOf);
  }

  async claim(workflowId: string, taskId: string, now: number, limit: number): Promise<QueuedMessage[]> {
    const items = await this.items(workflowId);
    const out = items.filter((item) => item.claimedBy === taskId).map(messageOf);
    const free = items.filter((i) => isFree(i, now)).map(messageOf);
    // The claims of one round are written at once; a message another claim took first is replaced
    // by the next free one in the following round. Order is kept: each round's winners, oldest first.
    let claimed = 0;
    while (out.length < limit && free.length > 0) {
      const round = free.splice(0, limit - out.length);
      const won = await Promise.all(round.map((m) => this.setClaim(workflowId, m.seq, taskId)));
      const winners = round.filter((_, i) => won[i]);
      out.push(...winners);
      claimed += winners.length;
    }
    // Claimed messages no longer count toward the bound: one update for the whole batch.
    if (claimed > 0) await this.count(workflowId, -claimed);
    return out;
  }

  async claims(workflowId: string): Promise<Map<string, QueuedMessage[]>> {
    const out = new Map<string, QueuedMessage[]>();
    for (const item of await this.items(workflowId)) {
      if (typeof item.claimedBy !== 'string') continue;
      out.set(item.claimedBy, [...(out.get(item.claimedBy) ?? []), messageOf(item)]);
    }
    return out;
  }

  async settle(workflowId: string, taskId: string, delivered: readonly string[]): Promise<void> {
    const ids = new Set(delivered);
    const mine = (await this.items(workflowId)).filter((item) => item.claimedBy === taskId).map(messageOf);
    const gone = mine.filter((m) => ids.has(m.id));
    await batchDelete(
      this.client,
      this.table,
      gone.map((m) => messageKey(workflowId, m.seq)),
      'message delete',
    );
    const back = await Promise.all(
      mine.filter((m) => !ids.has(m.id)).map((m) => this.unclaim(workflowId, m.seq, taskId)),
    );
    const returned = back.filter(Boolean).length;
    if (returned > 0) await this.count(workflowId, returned);
  }

  /** Returns a claimed message to the queue; false when its claimer no longer holds it. */
  private async unclaim(workflowId: string, seq: string, taskId: string): Promise<boolean> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: messageKey(workflowId, seq),
          UpdateExpression: 'REMOVE claimedBy',
          ConditionExpression: 'claimedBy = :t',
          ExpressionAttributeValues: { ':t': taskId },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      translate(error, 'message unclaim');
    }
  }

  /** Claims one message for a task; false when another claim (or a delete) came first. */
  private async setClaim(workflowId: string, seq: string, taskId: string): Promise<boolean> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: messageKey(workflowId, seq),
          UpdateExpression: 'SET claimedBy = :t',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(claimedBy)',
          ExpressionAttributeValues: { ':t': taskId },
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) return false;
      translate(error, 'message claim');
    }
    return true;
  }

  async deleteQueue(workflowId: string): Promise<void> {
    const items = await queryAll(
      this.client,
      {
        TableName: this.table,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': workflowId },
        ProjectionExpression: 'pk, sk',
        ConsistentRead: true,
      },
      'message queue delete',
    );
    await batchDelete(
      this.client,
      this.table,
      items.map((i) => ({ pk: i.pk, sk: i.sk })),
      'message queue delete',
    );
  }

  /** The queue's messages, oldest first. */
  private items(workflowId: string): Promise<Item[]> {
    return queryAll(
      this.client,
      {
        TableName: this.table,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :m)',
        ExpressionAttributeValues: { ':pk': workflowId, ':m': MESSAGE_PREFIX },
        ConsistentRead: true,
      },
      'message query',
    );
  }

  /** Moves the queue's count by `delta`; an increase only while below `limit`. */
  private async count(workflowId: string, delta: number, limit?: number): Promise<boolean> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: workflowId, sk: COUNT_SK },
          UpdateExpression: 'ADD n :d',
          ExpressionAttributeValues: { ':d': delta, ...(limit === undefined ? {} : { ':limit': limit }) },
          ...(limit === undefined ? {} : { ConditionExpression: 'attribute_not_exists(n) OR n < :limit' }),
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      translate(error, 'message count');
    }
  }

  /** Deletes a message and uncounts it, once, whoever else deletes it at the same time. */
  private async remove(workflowId: string, seq: string): Promise<void> {
    const old = await this.client
      .send(
        new DeleteCommand({
          TableName: this.table,
          Key: messageKey(workflowId, seq),
          // A claimed message is no longer counted, and belongs to its pull.
          ConditionExpression: 'attribute_not_exists(claimedBy)',
          ReturnValues: 'ALL_OLD',
        }),
      )
      .catch((e: unknown) => (isConditionFailure(e) ? undefined : translate(e, 'message delete')));
    if (old?.Attributes) await this.count(workflowId, -1);
  }

  private async dropExpired(workflowId: string, now: number): Promise<void> {
    const expired = (await this.items(workflowId)).filter(
      (item) => item.claimedBy === undefined && Number(item.expiresAt) <= now,
    );
    for (const item of expired) await this.remove(workflowId, messageOf(item).seq);
  }
}
