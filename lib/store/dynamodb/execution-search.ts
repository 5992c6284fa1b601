/**
 * Search reads of the DynamoDB execution store (lib/search plans them):
 * - runIndex with names: one Query per name on byName (pk workflowName, sk createTime, the time
 *   window as key condition), projecting only index attributes: no record is read, and a query over
 *   type, version, status, correlation id and start time is filtered, counted and paged on these rows.
 * - runIndex by start day (a time window without names): one Query per day and shard on
 *   byStartDay (pk "<day>#<shard>", sk createTime, the window as key condition), 4 at a time, the
 *   same row attributes projected. A table without the index (an old local data directory) scans.
 * - runIndex otherwise: a Scan of workflow items (filter sk = "WF"), projecting the same
 *   attributes: it reads (and pays for) the whole table; the planner uses it only when the query
 *   names no workflow type and bounds no recent time window.
 * - getWorkflowsById: BatchGetItem (100 keys a call), consistent.
 * - tasksOfTypes: one Query per key of each type on byTaskType (pk taskType = the type's shard,
 *   sk scheduledTime, KEYS_ONLY),
 *   then BatchGet of the rows. The index is written once per task row created (its keys never
 *   change, nothing else is projected), never on a task update.
 * - scanTasks with ids: per run, a Query of its home (begins_with sk "T#"), and of its own
 *   partition when the home holds none of its rows (rowsOfRun); without: a Scan of task rows.
 * Cost on the write path: none beyond what byName already costs (a commit that changes the status
 * rewrites its byName row; other commits write no index row).
 */
import type { DynamoDBDocumentClient, QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { TaskRecord, WorkflowRecord, WorkflowStatus } from '../../model/execution.ts';
import { homeOf } from '../../model/ids.ts';
import type { RunIndexRead, RunIndexRow } from '../ports.ts';
import { isMissingIndex } from './errors.ts';
import {
  homePk,
  startDaysBetween,
  TASK_PREFIX,
  taskTypeKeys,
  WORKFLOW_SK,
  workflowKey,
} from './execution-items.ts';
import { batchGet, type Item, queryAll, scanAll } from './paging.ts';
import type { ExecutionCodec } from './snapshots.ts';

/**
 * byStartDay queries in flight at once for one search: one day's shards. More gains little on
 * DynamoDB, and the embedded store (dynalite, in the local server's own process) drops connections
 * when a dozen large queries land at once on a busy machine.
 */
const DAY_QUERY_CONCURRENCY = 4;

const ROW_ATTRIBUTES = 'pk, workflowName, workflowVersion, #status, correlationId, createTime';

function rowOf(item: Item): RunIndexRow {
  return {
    workflowId: String(item.pk),
    workflowName: String(item.workflowName),
    workflowVersion: Number(item.workflowVersion),
    status: String(item.status) as WorkflowStatus,
    correlationId: item.correlationId === undefined ? undefined : String(item.correlationId),
    createTime: Number(item.createTime),
  };
}

function window(read: RunIndexRead): { condition: string; values: Record<string, number> } {
  const from = read.startFrom ?? 0;
  const to = read.startTo ?? Number.MAX_SAFE_INTEGER;
  return { condition: 'createTime BETWEEN :from AND :to', values: { ':from': from, ':to': to } };
}

export async function runIndex(
  client: DynamoDBDocumentClient,
  table: string,
  read: RunIndexRead,
): Promise<RunIndexRow[]> {
  const { condition, values } = window(read);
  if (read.names) {
    const pages = await Promise.all(
      [...new Set(read.names)].map((name) =>
        queryAll(
          client,
          {
            TableName: table,
            IndexName: 'byName',
            KeyConditionExpression: `workflowName = :name AND ${condition}`,
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':name': name, ...values },
            ProjectionExpression: ROW_ATTRIBUTES,
          },
          'workflow search',
        ),
      ),
    );
    return pages
      .flat()
      .map(rowOf)
      .sort((a, b) => a.createTime - b.createTime);
  }
  if (read.byStartDay && read.startFrom !== undefined && read.startTo !== undefined) {
    try {
      return await runsByStartDay(client, table, read.startFrom, read.startTo);
    } catch (error) {
      if (!isMissingIndex(error, 'byStartDay')) throw error;
    }
  }
  const items = await scanAll(
    client,
    {
      TableName: table,
      FilterExpression: `sk = :wf AND ${condition}`,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':wf': WORKFLOW_SK, ...values },
      ProjectionExpression: ROW_ATTRIBUTES,
    },
    'workflow search',
  );
  return items.map(rowOf).sort((a, b) => a.createTime - b.createTime);
}

async function runsByStartDay(
  client: DynamoDBDocumentClient,
  table: string,
  from: number,
  to: number,
): Promise<RunIndexRow[]> {
  const keys = startDaysBetween(from, to);
  const items: Item[] = [];
  for (let i = 0; i < keys.length; i += DAY_QUERY_CONCURRENCY) {
    const pages = await Promise.all(
      keys.slice(i, i + DAY_QUERY_CONCURRENCY).map((day) =>
        queryAll(
          client,
          {
            TableName: table,
            IndexName: 'byStartDay',
            KeyConditionExpression: 'startDay = :day AND createTime BETWEEN :from AND :to',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':day': day, ':from': from, ':to': to },
            ProjectionExpression: ROW_ATTRIBUTES,
          },
          'workflow search',
        ),
      ),
    );
    items.push(...pages.flat());
  }
  return items.map(rowOf).sort((a, b) => a.createTime - b.createTime);
}

export async function workflowsById(
  client: DynamoDBDocumentClient,
  table: string,
  codec: ExecutionCodec,
  ids: readonly string[],
): Promise<WorkflowRecord[]> {
  const unique = [...new Set(ids)];
  const items = await batchGet(client, table, unique.map(workflowKey), 'workflow search');
  const byId = new Map<string, Item>(items.map((item) => [String(item.pk), item]));
  return codec.runs(unique.flatMap((id): Item[] => (byId.has(id) ? [byId.get(id) as Item] : [])));
}

/**
 * Task rows of the given types: byTaskType (KEYS_ONLY) on every key of each type (its shards and
 * the bare type of older rows, taskTypeKeys), then the rows (BatchGet), kept if of a type asked for.
 */
export async function tasksOfTypes(
  client: DynamoDBDocumentClient,
  table: string,
  codec: ExecutionCodec,
  types: readonly string[],
): Promise<TaskRecord[]> {
  const wanted = new Set(types);
  const pages = await Promise.all(
    [...new Set([...wanted].flatMap(taskTypeKeys))].map((key) =>
      queryAll(
        client,
        {
          TableName: table,
          IndexName: 'byTaskType',
          KeyConditionExpression: 'taskType = :type',
          ExpressionAttributeValues: { ':type': key },
        },
        'task search',
      ),
    ),
  );
  const keys = pages.flat().map((item) => ({ pk: item.pk, sk: item.sk }));
  const rows = await codec.tasks(await batchGet(client, table, keys, 'task search'));
  return rows.filter((row) => wanted.has(row.taskType));
}

export async function scanTasks(
  client: DynamoDBDocumentClient,
  table: string,
  codec: ExecutionCodec,
  ids?: readonly string[],
): Promise<TaskRecord[]> {
  if (ids) {
    const runs = await Promise.all(
      [...new Set(ids)].map((id) => rowsOfRun(client, table, codec, id, 'task search', false)),
    );
    return runs.flat();
  }
  const items = await scanAll(
    client,
    {
      TableName: table,
      FilterExpression: 'begins_with(sk, :t)',
      ExpressionAttributeValues: { ':t': TASK_PREFIX },
    },
    'task search',
  );
  return codec.tasks(items);
}

/**
 * The task rows of a run: those under its home that are its own (a homed run's: execution-items.ts
 * taskKey; another run whose id shares the home may have rows there too), or, when there are none,
 * those of the run's own partition (a run from before homes, or one with no rows yet).
 */
export async function rowsOfRun(
  client: DynamoDBDocumentClient,
  table: string,
  codec: ExecutionCodec,
  workflowId: string,
  operation: string,
  consistent: boolean,
): Promise<TaskRecord[]> {
  const rowsIn = async (pk: string) =>
    codec.tasks(await rowItemsIn(client, table, pk, operation, { ConsistentRead: consistent }));
  const homed = (await rowsIn(homePk(homeOf(workflowId)))).filter(
    (row) => row.workflowInstanceId === workflowId,
  );
  return homed.length > 0 ? homed : rowsIn(workflowId);
}

/** The task row items of one partition (consistent unless `input` says otherwise). */
export function rowItemsIn(
  client: DynamoDBDocumentClient,
  table: string,
  pk: string,
  operation: string,
  input: Pick<QueryCommandInput, 'ConsistentRead' | 'ProjectionExpression' | 'ExpressionAttributeNames'> = {},
): Promise<Item[]> {
  return queryAll(
    client,
    {
      TableName: table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :t)',
      ExpressionAttributeValues: { ':pk': pk, ':t': TASK_PREFIX },
      ConsistentRead: true,
      ...input,
    },
    operation,
  );
}
