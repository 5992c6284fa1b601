/**
 * The scheduler's store on DynamoDB. Key design of the `schedules` table (one table, three item
 * kinds; every item's `body` is the record as a JSON string):
 *
 *   schedule   pk = "S#<name>"         sk = "S"   rev (N), listKey = "S", listSort = "<name>",
 *              dueKey = "D" and dueAt (N) = nextDispatchTime (the first fire time not yet sent to
 *              the queue) only while the schedule is active
 *   execution  pk = "E#<executionId>"  sk = "E"   listKey = "E",
 *              listSort = "<scheduledTime, 13 digits>#<executionId>", ttl (epoch s, when it expires)
 *   state      pk = "STATE"            sk = "STATE"   paused
 *
 *   - due (GSI) pk dueKey, sk dueAt (NUMBER); ALL; sparse: only active schedules carry dueKey, so
 *     pausing a schedule takes it out of the index and a tick reads only what may fire. One Query
 *     (`dueAt < :before`, ascending) finds the schedules due before the next tick. A tick rewrites
 *     each due schedule once a minute at most; 10,000 schedules are ~170 index writes a second,
 *     well under one index partition's ~1,000, so the key is not sharded.
 *   - list (GSI) pk listKey, sk listSort; ALL: every schedule by name (list, search), and the
 *     execution records newest first (executions search: one Query, ScanIndexForward=false).
 *   Writes of a schedule are conditional on `rev` (or on its absence), so a tick and an API update
 *   never overwrite each other; an execution is claimed with attribute_not_exists(pk), which is
 *   what makes a fire happen once per (schedule, cron, scheduled time).
 */
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
} from '@aws-sdk/lib-dynamodb';
import { VersionConflictError } from '../../model/errors.ts';
import { putIfAbsent, putIfRevision, translate } from '../../store/dynamodb/errors.ts';
import { type Item, queryAll } from '../../store/dynamodb/paging.ts';
import { TTL_ATTRIBUTE } from '../../store/dynamodb/tables.ts';
import type { ScheduleExecution, ScheduleRecord } from '../model.ts';
import type { SchedulerState, ScheduleStore } from '../ports.ts';

const scheduleKey = (name: string) => ({ pk: `S#${name}`, sk: 'S' });
const executionKey = (id: string) => ({ pk: `E#${id}`, sk: 'E' });
const STATE_KEY = { pk: 'STATE', sk: 'STATE' };
const bodyOf = <T>(item: Item): T => JSON.parse(String(item.body)) as T;

export class DynamoScheduleStore implements ScheduleStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async get(name: string): Promise<ScheduleRecord | undefined> {
    const result = await this.client
      .send(new GetCommand({ TableName: this.table, Key: scheduleKey(name), ConsistentRead: true }))
      .catch((e: unknown) => translate(e, 'schedule get'));
    return result.Item ? bodyOf<ScheduleRecord>(result.Item) : undefined;
  }

  async save(record: ScheduleRecord, expectedRev: number | undefined): Promise<void> {
    const active = !record.paused && record.nextDispatchTime !== undefined;
    const item = {
      ...scheduleKey(record.name),
      rev: record.rev,
      listKey: 'S',
      listSort: record.name,
      ...(active ? { dueKey: 'D', dueAt: record.nextDispatchTime } : {}),
      body: JSON.stringify(record),
    };
    if (!(await putIfRevision(this.client, this.table, item, expectedRev, 'schedule save')))
      throw new VersionConflictError(`Schedule '${record.name}' was changed concurrently`);
  }

  async delete(name: string): Promise<boolean> {
    const result = await this.client
      .send(new DeleteCommand({ TableName: this.table, Key: scheduleKey(name), ReturnValues: 'ALL_OLD' }))
      .catch((e: unknown) => translate(e, 'schedule delete'));
    return result.Attributes !== undefined;
  }

  async list(): Promise<ScheduleRecord[]> {
    const items = await queryAll(
      this.client,
      {
        TableName: this.table,
        IndexName: 'list',
        KeyConditionExpression: 'listKey = :k',
        ExpressionAttributeValues: { ':k': 'S' },
      },
      'schedule list',
    );
    return items.map((item) => bodyOf<ScheduleRecord>(item));
  }

  async due(before: number, limit: number): Promise<ScheduleRecord[]> {
    const found: ScheduleRecord[] = [];
    let start: Item | undefined;
    do {
      const page = await this.client
        .send(
          new QueryCommand({
            TableName: this.table,
            IndexName: 'due',
            KeyConditionExpression: 'dueKey = :d AND dueAt < :before',
            ExpressionAttributeValues: { ':d': 'D', ':before': before },
            Limit: Math.min(1000, limit - found.length),
            ExclusiveStartKey: start,
          }),
        )
        .catch((e: unknown) => translate(e, 'due schedules'));
      for (const item of page.Items ?? []) found.push(bodyOf<ScheduleRecord>(item));
      start = page.LastEvaluatedKey;
    } while (start && found.length < limit);
    return found;
  }

  async claimExecution(execution: ScheduleExecution): Promise<ScheduleExecution | undefined> {
    const item = this.executionItem(execution);
    if (await putIfAbsent(this.client, this.table, item, 'schedule execution claim')) return undefined;
    return this.getExecution(execution.executionId);
  }

  async putExecution(execution: ScheduleExecution): Promise<void> {
    await this.client
      .send(new PutCommand({ TableName: this.table, Item: this.executionItem(execution) }))
      .catch((e: unknown) => translate(e, 'schedule execution put'));
  }

  async getExecution(executionId: string): Promise<ScheduleExecution | undefined> {
    const result = await this.client
      .send(new GetCommand({ TableName: this.table, Key: executionKey(executionId), ConsistentRead: true }))
      .catch((e: unknown) => translate(e, 'schedule execution get'));
    return result.Item ? bodyOf<ScheduleExecution>(result.Item) : undefined;
  }

  async recentExecutions(limit: number): Promise<ScheduleExecution[]> {
    const found: ScheduleExecution[] = [];
    let start: Item | undefined;
    do {
      const page = await this.client
        .send(
          new QueryCommand({
            TableName: this.table,
            IndexName: 'list',
            KeyConditionExpression: 'listKey = :k',
            ExpressionAttributeValues: { ':k': 'E' },
            ScanIndexForward: false,
            Limit: Math.min(1000, limit - found.length),
            ExclusiveStartKey: start,
          }),
        )
        .catch((e: unknown) => translate(e, 'schedule executions'));
      for (const item of page.Items ?? []) found.push(bodyOf<ScheduleExecution>(item));
      start = page.LastEvaluatedKey;
    } while (start && found.length < limit);
    return found;
  }

  async state(): Promise<SchedulerState> {
    const result = await this.client
      .send(new GetCommand({ TableName: this.table, Key: STATE_KEY, ConsistentRead: true }))
      .catch((e: unknown) => translate(e, 'scheduler state get'));
    return { paused: result.Item?.paused === true };
  }

  async setState(state: SchedulerState): Promise<void> {
    await this.client
      .send(new PutCommand({ TableName: this.table, Item: { ...STATE_KEY, paused: state.paused } }))
      .catch((e: unknown) => translate(e, 'scheduler state put'));
  }

  private executionItem(execution: ScheduleExecution): Item {
    return {
      ...executionKey(execution.executionId),
      listKey: 'E',
      listSort: `${String(execution.scheduledTime).padStart(13, '0')}#${execution.executionId}`,
      // DynamoDB TTL deletes the record up to 48 h after it expires (lib/scheduler/retention.ts).
      ...(execution.expiresAt ? { [TTL_ATTRIBUTE]: Math.ceil(execution.expiresAt / 1000) } : {}),
      body: JSON.stringify(execution),
    };
  }
}
