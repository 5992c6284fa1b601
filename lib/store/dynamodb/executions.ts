/**
 * DynamoDB adapter of the execution store: runs, task rows and task logs in one table. Key design:
 * tables.ts ("executions"). Records travel as a JSON `body`; the top-level attributes exist for keys,
 * indexes and the `rev` conditions that replace transactions (lib/engine/ARCHITECTURE.md).
 */
import { randomUUID } from 'node:crypto';
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { ConflictError, VersionConflictError } from '../../model/errors.ts';
import type { TaskRecord, WorkflowRecord } from '../../model/execution.ts';
import { homeOf, mayBeHomed } from '../../model/ids.ts';
import { mapLimited } from '../../model/map-limited.ts';
import { payloadKeysIn } from '../../payloads/keys.ts';
import type {
  ExecutionStore,
  ExpiredRunRemover,
  IdempotencyClaim,
  ReadOptions,
  RunIndexRead,
  RunIndexRow,
  TaskExecLog,
} from '../ports.ts';
import { matchesQuery, type WorkflowQuery } from '../run-query.ts';
import { byRunOrder } from '../run-rows.ts';
import { isConditionFailure, isMissingIndex, putIfAbsent, translate } from './errors.ts';
import {
  bodyJson,
  bodyOf,
  byNameQuery,
  correlationKeyOf,
  homedTaskKey,
  homePk,
  idempotencyItem,
  idempotencyKey,
  logItem,
  logPk,
  logSortKeyBefore,
  TASK_PREFIX,
  taskKey,
  WAKE_SHARDS,
  WORKFLOW_SK,
  workflowKey,
} from './execution-items.ts';
import {
  rowItemsIn,
  rowsOfRun,
  runIndex,
  scanTasks,
  tasksOfTypes,
  workflowsById,
} from './execution-search.ts';
import { batchDelete, batchGet, batchPut, type Item, queryAll } from './paging.ts';
import { ExecutionCodec } from './snapshots.ts';
import { TTL_ATTRIBUTE } from './tables.ts';

/** Logs of this many tasks are looked up at once when a run or some of its rows are removed. */
const LOG_LOOKUP_CONCURRENCY = 8;
/** A row item's task id (its sort key is "T#<taskId>"). */
const taskIdOfRow = (row: Item): string => String(row.sk).slice(TASK_PREFIX.length);

/** Task rows created at once by one createTasks call (the SDK's default pool has 50 sockets). */
const CREATE_CONCURRENCY = 32;
/** A row that vanishes between a failed create and the read that adopts it is created again, this often. */
const CREATE_ATTEMPTS = 3;

export class DynamoExecutionStore implements ExecutionStore, ExpiredRunRemover {
  /** Orders logs appended by this process within one millisecond. */
  private logCounter = 0;

  private readonly codec: ExecutionCodec;

  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {
    this.codec = new ExecutionCodec(client, table);
  }

  async createWorkflow(record: WorkflowRecord): Promise<void> {
    // The id must be new: a start that runs twice converges on the first run.
    const item = await this.codec.workflowItem(record);
    if (!(await putIfAbsent(this.client, this.table, item, 'workflow create')))
      throw new ConflictError(`Workflow ${record.workflowId} already exists`);
  }

  async claimIdempotencyKey(claim: IdempotencyClaim): Promise<string | undefined> {
    const key = idempotencyKey(claim.workflowName, claim.key);
    for (let attempt = 0; attempt < CREATE_ATTEMPTS; attempt++) {
      try {
        await this.client.send(
          new PutCommand({
            TableName: this.table,
            Item: idempotencyItem(claim),
            // One run per key: the first claim wins, and a successor replaces only the run it read.
            ConditionExpression:
              claim.replaces === undefined
                ? 'attribute_not_exists(pk)'
                : 'attribute_not_exists(pk) OR workflowId = :replaces',
            ...(claim.replaces === undefined
              ? {}
              : { ExpressionAttributeValues: { ':replaces': claim.replaces } }),
          }),
        );
        return undefined;
      } catch (error) {
        if (!isConditionFailure(error)) translate(error, 'idempotency claim');
      }
      const held = await this.client
        .send(new GetCommand({ TableName: this.table, Key: key, ConsistentRead: true }))
        .catch((e: unknown) => translate(e, 'idempotency claim'));
      if (typeof held.Item?.workflowId === 'string') return held.Item.workflowId;
    }
    throw new ConflictError(`Idempotency key ${claim.key} kept changing while it was claimed`);
  }

  async holdRun(workflowId: string, until: number): Promise<boolean> {
    const seconds = Math.ceil(until / 1000);
    try {
      // Only the TTL moves, and only later: a record without one is kept for good already.
      await this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: workflowKey(workflowId),
          UpdateExpression: 'SET #ttl = :until',
          ConditionExpression: 'attribute_exists(#ttl) AND #ttl < :until',
          ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE },
          ExpressionAttributeValues: { ':until': seconds },
        }),
      );
      return true;
    } catch (error) {
      if (!isConditionFailure(error)) translate(error, 'run hold');
    }
    const stored = await this.client
      .send(
        new GetCommand({
          TableName: this.table,
          Key: workflowKey(workflowId),
          ConsistentRead: true,
          ProjectionExpression: 'pk',
        }),
      )
      .catch((e: unknown) => translate(e, 'run hold'));
    return stored.Item !== undefined;
  }

  async getWorkflow(workflowId: string): Promise<WorkflowRecord | undefined> {
    const result = await this.client
      .send(new GetCommand({ TableName: this.table, Key: workflowKey(workflowId), ConsistentRead: true }))
      .catch((e: unknown) => translate(e, 'workflow get'));
    return result.Item ? this.codec.run(result.Item) : undefined;
  }

  async commitWorkflow(record: WorkflowRecord, expectedRev: number): Promise<void> {
    // Optimistic concurrency: the record is replaced only if nobody committed since it was read
    // (it also fails when the run was removed meanwhile).
    await this.putAtRev(
      await this.codec.workflowItem(record),
      expectedRev,
      `Workflow ${record.workflowId} changed concurrently (expected rev ${expectedRev})`,
      'workflow commit',
    );
  }

  async removeWorkflow(workflowId: string): Promise<void> {
    const { rows } = await this.itemsUnderRun(workflowId, 'workflow remove');
    // Logs first, then task rows, then the record: a removal cut short leaves the record, so it can
    // be found and removed again, and never leaves logs nothing points to.
    await this.deleteLogs(rows.map(taskIdOfRow));
    await batchDelete(
      this.client,
      this.table,
      rows.map((row) => ({ pk: row.pk, sk: row.sk })),
      'workflow remove',
    );
    await this.client
      .send(new DeleteCommand({ TableName: this.table, Key: workflowKey(workflowId) }))
      .catch((e: unknown) => translate(e, 'workflow remove'));
  }

  async removeExpiredRun(workflowId: string, before: number): Promise<void> {
    const { record, rows: all } = await this.itemsUnderRun(workflowId, 'expired run remove');
    // The id is a run's again (or the expired record is not deleted yet): its rows are not the
    // expired run's to take.
    if (record) return;
    const rows = all.filter((row) => typeof row.scheduledTime === 'number' && row.scheduledTime < before);
    await this.deleteLogs(rows.map(taskIdOfRow), before);
    // One conditional delete per row: a row written since (a run created again under the id, with
    // the same task id) is not the expired run's.
    await mapLimited(rows, CREATE_CONCURRENCY, async (row) => {
      try {
        await this.client.send(
          new DeleteCommand({
            TableName: this.table,
            Key: { pk: row.pk, sk: row.sk },
            ConditionExpression: 'scheduledTime < :before',
            ExpressionAttributeValues: { ':before': before },
          }),
        );
      } catch (error) {
        if (!isConditionFailure(error)) translate(error, 'expired run remove');
      }
    });
  }

  /**
   * Whether the run's record is stored, and the keys (and scheduled times) of every task row under
   * the run's id, whichever run wrote it: the rows of its own partition (runs from before homes),
   * and those under its home that name it (another id may share the home, so each row's body says
   * whose it is).
   */
  private async itemsUnderRun(
    workflowId: string,
    operation: string,
  ): Promise<{ record: boolean; rows: Item[] }> {
    const [own, home] = await Promise.all([
      queryAll(
        this.client,
        {
          TableName: this.table,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': workflowId },
          ProjectionExpression: 'pk, sk, scheduledTime',
          ConsistentRead: true,
        },
        operation,
      ),
      rowItemsIn(this.client, this.table, homePk(homeOf(workflowId)), operation, {
        ProjectionExpression: 'pk, sk, scheduledTime, #body, #bodyZ',
        ExpressionAttributeNames: { '#body': 'body', '#bodyZ': 'bodyZ' },
      }),
    ]);
    const named = home.filter(
      (item) => bodyOf<Pick<TaskRecord, 'workflowInstanceId'>>(item).workflowInstanceId === workflowId,
    );
    return {
      record: own.some((item) => item.sk === WORKFLOW_SK),
      rows: [
        ...own.filter((item) => String(item.sk).startsWith(TASK_PREFIX)),
        ...named.map(({ pk, sk, scheduledTime }) => ({ pk, sk, scheduledTime })),
      ],
    };
  }

  createTasks(tasks: TaskRecord[]): Promise<TaskRecord[]> {
    // One conditional put per row, CREATE_CONCURRENCY at a time (BatchWriteItem takes no
    // conditions): a 1,000-branch fork's rows do not all wait at once for the client's sockets.
    return mapLimited(tasks, CREATE_CONCURRENCY, (task) => this.createTask(task));
  }

  async updateTask(task: TaskRecord, expectedRev: number): Promise<void> {
    // A worker update and a decide may race on one row; the loser re-reads instead of
    // overwriting (it also fails when the row was deleted meanwhile).
    await this.putAtRev(
      await this.codec.taskItem(task),
      expectedRev,
      `Task ${task.taskId} changed concurrently (expected rev ${expectedRev})`,
      'task update',
    );
  }

  /** Replaces an item if its stored `rev` is still `expectedRev`; otherwise a VersionConflictError. */
  private async putAtRev(
    item: Record<string, unknown>,
    expectedRev: number,
    conflict: string,
    operation: string,
  ) {
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.table,
          Item: item,
          ConditionExpression: '#rev = :expected',
          ExpressionAttributeNames: { '#rev': 'rev' },
          ExpressionAttributeValues: { ':expected': expectedRev },
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) throw new VersionConflictError(conflict);
      translate(error, operation);
    }
  }

  async getTask(workflowId: string, taskId: string, options?: ReadOptions): Promise<TaskRecord | undefined> {
    // `fresh: false`: eventually consistent, half the read units (ports.ts ReadOptions).
    const consistent = options?.fresh !== false;
    const result = await this.client
      .send(
        new GetCommand({
          TableName: this.table,
          Key: taskKey(workflowId, taskId),
          ConsistentRead: consistent,
        }),
      )
      .catch((e: unknown) => translate(e, 'task get'));
    return result.Item ? this.codec.task(result.Item) : undefined;
  }

  async getTasks(
    workflowId: string,
    taskIds: readonly string[],
    options?: ReadOptions,
  ): Promise<TaskRecord[]> {
    const keys = [...new Set(taskIds)].map((id) => taskKey(workflowId, id));
    const found = new Map<string, TaskRecord>();
    const consistent = options?.fresh !== false;
    const items = await batchGet(this.client, this.table, keys, 'task batch get', consistent);
    for (const task of await this.codec.tasks(items)) found.set(task.taskId, task);
    // An id asked for twice gets a copy the second time: callers may change what they get.
    const given = new Set<string>();
    return taskIds.flatMap((id) => {
      const task = found.get(id);
      if (!task) return [];
      if (given.has(id)) return [structuredClone(task)];
      given.add(id);
      return [task];
    });
  }

  async findTask(taskId: string): Promise<TaskRecord | undefined> {
    // A homed task id names its row's key: one consistent read. Any other id is no homed task's,
    // and may be longer than a key holds.
    if (mayBeHomed(taskId)) {
      const homed = await this.client
        .send(new GetCommand({ TableName: this.table, Key: homedTaskKey(taskId), ConsistentRead: true }))
        .catch((e: unknown) => translate(e, 'task get'));
      if (homed.Item) return this.codec.task(homed.Item);
    }
    // A row of a run from before homes: the byTask index names its partition.
    const page = await this.client
      .send(
        new QueryCommand({
          TableName: this.table,
          IndexName: 'byTask',
          KeyConditionExpression: 'taskId = :id',
          ExpressionAttributeValues: { ':id': taskId },
          Limit: 1,
        }),
      )
      .catch((e: unknown) => translate(e, 'task find'));
    const owner = page.Items?.[0]?.pk;
    // The index is eventually consistent; the row itself is read consistently.
    return typeof owner === 'string' ? this.getTask(owner, taskId) : undefined;
  }

  async listTasks(workflowId: string): Promise<TaskRecord[]> {
    return (await rowsOfRun(this.client, this.table, this.codec, workflowId, 'task list', true)).sort(
      byRunOrder,
    );
  }

  async deleteTasks(workflowId: string, taskIds: readonly string[]): Promise<void> {
    const unique = [...new Set(taskIds)];
    await this.deleteLogs(unique);
    await batchDelete(
      this.client,
      this.table,
      unique.map((id) => taskKey(workflowId, id)),
      'task delete',
    );
  }

  async findWorkflows(query: WorkflowQuery): Promise<WorkflowRecord[]> {
    if (query.correlationId) {
      try {
        return await this.findCorrelated(query, query.correlationId);
      } catch (error) {
        // A table created before the byCorrelation index existed (a local data directory from an
        // earlier version: dynalite cannot add an index to an existing table) has no such index;
        // its runs are still found through byName, filtered on the projected correlation id.
        if (!isMissingIndex(error)) throw error;
      }
    }
    return this.findByName(query);
  }

  private async findByName(query: WorkflowQuery): Promise<WorkflowRecord[]> {
    const condition = byNameQuery(query);
    if (!condition) return [];
    const matches = await queryAll(
      this.client,
      {
        TableName: this.table,
        IndexName: 'byName',
        ...condition,
        ProjectionExpression: 'pk',
      },
      'workflow find',
    );
    const keys = [...new Set(matches.map((item) => String(item.pk)))].map(workflowKey);
    const records = await this.codec.runs(await batchGet(this.client, this.table, keys, 'workflow find'));
    return records.sort((a, b) => a.createTime - b.createTime);
  }

  /** Runs of a name with a correlation id: the byCorrelation index, then the records, filtered. */
  private async findCorrelated(query: WorkflowQuery, correlationId: string): Promise<WorkflowRecord[]> {
    if (query.statuses?.length === 0) return [];
    const matches = await queryAll(
      this.client,
      {
        TableName: this.table,
        IndexName: 'byCorrelation',
        KeyConditionExpression: 'correlationKey = :key',
        ExpressionAttributeValues: { ':key': correlationKeyOf(query.name, correlationId) },
      },
      'workflow find',
    );
    const keys = [...new Set(matches.map((item) => String(item.pk)))].map(workflowKey);
    const records = await this.codec.runs(await batchGet(this.client, this.table, keys, 'workflow find'));
    return records.filter((r) => matchesQuery(r, query)).sort((a, b) => a.createTime - b.createTime);
  }

  runIndex(read: RunIndexRead): Promise<RunIndexRow[]> {
    return runIndex(this.client, this.table, read);
  }

  getWorkflowsById(workflowIds: readonly string[]): Promise<WorkflowRecord[]> {
    return workflowsById(this.client, this.table, this.codec, workflowIds);
  }

  scanTasks(workflowIds?: readonly string[]): Promise<TaskRecord[]> {
    return scanTasks(this.client, this.table, this.codec, workflowIds);
  }

  async tasksOfTypes(taskTypes: readonly string[]): Promise<TaskRecord[]> {
    try {
      return await tasksOfTypes(this.client, this.table, this.codec, taskTypes);
    } catch (error) {
      // A table from before the byTaskType index (an old local data directory): scan and filter.
      if (!isMissingIndex(error, 'byTaskType')) throw error;
      return (await scanTasks(this.client, this.table, this.codec)).filter((t) =>
        taskTypes.includes(t.taskType),
      );
    }
  }

  /**
   * A Scan of the whole table, run items and task rows kept (log lines and idempotency keys read
   * but filtered out), their bodies read as stored, deflated or not: one read unit per 8 KB of the
   * table (eventually consistent: the sweep's grace period covers the lag), once per sweep.
   */
  async payloadReferences(visit: (key: string) => void): Promise<void> {
    let start: Item | undefined;
    do {
      const page = await this.client
        .send(
          new ScanCommand({
            TableName: this.table,
            FilterExpression: 'sk = :wf OR begins_with(sk, :task)',
            ExpressionAttributeNames: { '#body': 'body', '#bodyZ': 'bodyZ' },
            ExpressionAttributeValues: { ':wf': WORKFLOW_SK, ':task': TASK_PREFIX },
            ProjectionExpression: '#body, #bodyZ',
            ExclusiveStartKey: start,
          }),
        )
        .catch((e: unknown) => translate(e, 'payload references scan'));
      for (const item of page.Items ?? []) {
        if (item.body === undefined && item.bodyZ === undefined) continue;
        payloadKeysIn(bodyJson(item)).forEach(visit);
      }
      start = page.LastEvaluatedKey;
    } while (start);
  }

  async unfinishedWorkflows(limit: number): Promise<string[]> {
    const ids: string[] = [];
    let start: Item | undefined;
    do {
      const page = await this.client
        .send(
          new ScanCommand({
            TableName: this.table,
            ConsistentRead: true,
            FilterExpression: 'sk = :wf AND #status IN (:running, :paused)',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':wf': WORKFLOW_SK, ':running': 'RUNNING', ':paused': 'PAUSED' },
            ProjectionExpression: 'pk',
            ExclusiveStartKey: start,
          }),
        )
        .catch((e: unknown) => translate(e, 'unfinished runs scan'));
      for (const item of page.Items ?? []) if (ids.length < limit) ids.push(String(item.pk));
      start = page.LastEvaluatedKey;
    } while (start && ids.length < limit);
    return ids;
  }

  async dueWakeups(now: number, limit: number): Promise<{ workflowId: string; wakeAt: number }[]> {
    // Each shard is read soonest first up to `limit`; the merge keeps the soonest overall.
    const shards = await Promise.all(
      Array.from({ length: WAKE_SHARDS }, (_, n) => this.dueInShard(`W${n}`, now, limit)),
    );
    return shards
      .flat()
      .sort((a, b) => a.wakeAt - b.wakeAt)
      .slice(0, limit);
  }

  private async dueInShard(shard: string, now: number, limit: number) {
    const due: { workflowId: string; wakeAt: number }[] = [];
    let start: Item | undefined;
    while (due.length < limit) {
      const page = await this.client
        .send(
          new QueryCommand({
            TableName: this.table,
            IndexName: 'wakeups',
            KeyConditionExpression: 'wakeShard = :shard AND wakeAt <= :now',
            ExpressionAttributeValues: { ':shard': shard, ':now': now },
            ScanIndexForward: true,
            Limit: limit - due.length,
            ExclusiveStartKey: start,
          }),
        )
        .catch((e: unknown) => translate(e, 'wake-up query'));
      for (const item of page.Items ?? [])
        due.push({ workflowId: String(item.pk), wakeAt: Number(item.wakeAt) });
      start = page.LastEvaluatedKey;
      if (!start) break;
    }
    return due;
  }

  async appendLogs(logs: TaskExecLog[]): Promise<void> {
    const items = logs.map((log) => logItem(log, this.logCounter++, randomUUID().slice(0, 8)));
    await batchPut(this.client, this.table, items, 'log append');
  }

  async logs(taskId: string): Promise<TaskExecLog[]> {
    const items = await queryAll(
      this.client,
      {
        TableName: this.table,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': logPk(taskId) },
        ConsistentRead: true,
      },
      'log list',
    );
    return items.map((item) => bodyOf<TaskExecLog>(item));
  }

  private async createTask(task: TaskRecord): Promise<TaskRecord> {
    for (let attempt = 0; attempt < CREATE_ATTEMPTS; attempt++) {
      // Idempotent create: a decide re-run after a crash must not clobber a row a worker has
      // polled or completed since; it adopts the stored row instead.
      if (await putIfAbsent(this.client, this.table, await this.codec.taskItem(task), 'task create'))
        return structuredClone(task);
      const existing = await this.getTask(task.workflowInstanceId, task.taskId);
      if (existing) return existing;
      // Deleted between the failed put and the read (a concurrent rerun): try to create it again.
    }
    throw new VersionConflictError(`Task ${task.taskId} kept changing while it was being created`);
  }

  /** Deletes the log lines of the tasks; with `before` (epoch ms), only lines written before then. */
  private async deleteLogs(taskIds: readonly string[], before?: number): Promise<void> {
    for (let i = 0; i < taskIds.length; i += LOG_LOOKUP_CONCURRENCY) {
      await Promise.all(
        taskIds.slice(i, i + LOG_LOOKUP_CONCURRENCY).map(async (taskId) => {
          const keys = await queryAll(
            this.client,
            {
              TableName: this.table,
              KeyConditionExpression: before === undefined ? 'pk = :pk' : 'pk = :pk AND sk < :before',
              ExpressionAttributeValues: {
                ':pk': logPk(taskId),
                // A line's sort key starts with its time (execution-items.ts logItem).
                ...(before === undefined ? {} : { ':before': logSortKeyBefore(before) }),
              },
              ProjectionExpression: 'pk, sk',
              ConsistentRead: true,
            },
            'log delete',
          );
          await batchDelete(this.client, this.table, keys, 'log delete');
        }),
      );
    }
  }
}
