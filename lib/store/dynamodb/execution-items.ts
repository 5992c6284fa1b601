/**
 * How execution records map onto items of the executions table (key design: tables.ts): keys, the
 * attributes beside the JSON body that indexes and conditions read, and the byName query of a
 * findWorkflows call.
 */
import { createHash } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { baseRef } from '../../model/definition-graph.ts';
import type { WorkflowDef, WorkflowTask } from '../../model/definitions.ts';
import { PayloadTooLargeError } from '../../model/errors.ts';
import type { TaskRecord, WorkflowRecord } from '../../model/execution.ts';
import { homeOfTask, isHomedTaskOf } from '../../model/ids.ts';
import type { RunFields } from '../../search/summaries.ts';
import { deepFreeze } from '../deep-freeze.ts';
import type { TaskExecLog } from '../ports.ts';
import { decodeRun, encodeRun } from '../run-codec.ts';
import type { WorkflowQuery } from '../run-query.ts';
import type { Item } from './paging.ts';
import { TTL_ATTRIBUTE } from './tables.ts';

export const TASK_PREFIX = 'T#';
/** The single partition of the sparse wakeups index (tables.ts says when to shard it). */
/**
 * The wake-ups index is spread over this many partition keys ("W0".."W7"), chosen by a hash of the
 * workflow id, so every run's wake-up does not land in one index partition (~1,000 writes/s each).
 */
export const WAKE_SHARDS = 8;

/** A stable hash of an id (a workflow's or a task's), to pick an index shard. */
function hashOf(id: string): number {
  let hash = 0;
  for (let i = 0; i < id.length; i++) hash = (hash * 31 + id.charCodeAt(i)) >>> 0;
  return hash;
}

export function wakeShardOf(workflowId: string): string {
  return `W${hashOf(workflowId) % WAKE_SHARDS}`;
}

/**
 * The byStartDay index spreads one UTC day's runs over this many partition keys
 * ("<yyyy-mm-dd>#0".."#3", by a hash of the workflow id): every run started that day writes there,
 * and an index partition takes about 1,000 writes/s.
 */
export const DAY_SHARDS = 4;
export const DAY_MS = 86_400_000;

const dayOf = (time: number) => new Date(Math.floor(time / DAY_MS) * DAY_MS).toISOString().slice(0, 10);

export function startDayOf(workflowId: string, createTime: number): string {
  return `${dayOf(createTime)}#${hashOf(workflowId) % DAY_SHARDS}`;
}

/**
 * The byTaskType index spreads one task type's rows over this many partition keys
 * ("<taskType>#0".."#3", by a hash of the task id): every row of the type is written there once,
 * and an index partition takes about 1,000 writes/s, so one key would cap a task type near 1,000
 * tasks/s (below its four worker-queue keys).
 */
export const TYPE_SHARDS = 4;

/** A task row's byTaskType key. */
export const taskTypeKeyOf = (taskType: string, taskId: string): string =>
  `${taskType}#${hashOf(taskId) % TYPE_SHARDS}`;

/**
 * Every byTaskType key a row of the type may have: its shards, and the bare type, which rows
 * written before the index was sharded carry. A key can also hold rows of another type (a type
 * literally named "x#0" shares a key with shard 0 of "x"), so readers check each row's type.
 */
export const taskTypeKeys = (taskType: string): string[] => [
  taskType,
  ...Array.from({ length: TYPE_SHARDS }, (_, shard) => `${taskType}#${shard}`),
];

/** Every byStartDay key of the days from `from` to `to` (inclusive, epoch ms), oldest first. */
export function startDaysBetween(from: number, to: number): string[] {
  const keys: string[] = [];
  for (let day = Math.floor(from / DAY_MS); day <= Math.floor(to / DAY_MS); day++) {
    const name = dayOf(day * DAY_MS);
    for (let shard = 0; shard < DAY_SHARDS; shard++) keys.push(`${name}#${shard}`);
  }
  return keys;
}
export const WORKFLOW_SK = 'WF';

export const workflowKey = (workflowId: string) => ({ pk: workflowId, sk: WORKFLOW_SK });
/** The partition of a home's rows (model/ids.ts homeOf): a homed run's task rows live there. */
export const homePk = (home: string) => `H#${home}`;
/**
 * A task row's key: under its run's home when the task id is homed (a run created since homes),
 * else in the run's own partition, as rows were before.
 */
export const taskKey = (workflowId: string, taskId: string) =>
  isHomedTaskOf(workflowId, taskId)
    ? homedTaskKey(taskId)
    : { pk: workflowId, sk: `${TASK_PREFIX}${taskId}` };
/** The key of a homed task's row, from its id alone (model/ids.ts mayBeHomed says which ids can be). */
export const homedTaskKey = (taskId: string) => ({
  pk: homePk(homeOfTask(taskId)),
  sk: `${TASK_PREFIX}${taskId}`,
});
/** An idempotency key's item; JSON keeps the name and the key apart whatever characters they hold. */
export const idempotencyKey = (workflowName: string, key: string) => ({
  pk: `IDEM#${JSON.stringify([workflowName, key])}`,
  sk: 'IDEM',
});
/** An idempotency claim's item: in no index (no workflowName, taskId or wakeShard attribute). */
export const idempotencyItem = (claim: { workflowName: string; key: string; workflowId: string }): Item => ({
  ...idempotencyKey(claim.workflowName, claim.key),
  workflowId: claim.workflowId,
});
export const logPk = (taskId: string) => `LOG#${taskId}`;
const digits = (value: number, width: number) => String(Math.max(0, Math.floor(value))).padStart(width, '0');
/**
 * A run record or task row whose JSON is longer than this is stored deflated (binary `bodyZ`
 * instead of `body`). DynamoDB bills a write per started KB of the item and a consistent read per
 * 4 KB, and every decide rewrites the record: a five-task run's 1.7 KB record deflates to about
 * 0.4 KB, one write unit instead of two, for about 0.1 ms of CPU each way. A task row is written
 * three times (created, claimed, completed), so a row of a few KB of input and output pays that
 * three times over; JSON of business data deflates 3-5x. A record with 1,000 open dynamic-fork
 * branches (about 0.3 MB of JSON, run-codec.ts) shrinks to a few tens of KB, far below the 400 KB
 * item cap. An item that fits one write unit anyway stays plain.
 */
export const DEFLATE_OVER = 1024;
/** What an item's body may take of a DynamoDB item (400 KB, its other attributes included). */
const MAX_BODY_BYTES = 390 * 1024;

/**
 * An item's body attribute: the JSON as it is up to DEFLATE_OVER, else deflated. Too large even
 * deflated, it is said plainly (`tooLarge`, given the deflated size) rather than as DynamoDB's
 * ValidationException.
 */
function storedBody(json: string, tooLarge: (bytes: number) => string): { body: string } | { bodyZ: Buffer } {
  if (json.length <= DEFLATE_OVER) return { body: json };
  // Level 1: the size win of deflate at a fraction of its CPU (a 1 MB record in about 4 ms).
  const bodyZ = deflateRawSync(json, { level: 1 });
  if (bodyZ.byteLength > MAX_BODY_BYTES) throw new PayloadTooLargeError(tooLarge(bodyZ.byteLength));
  return { bodyZ };
}

/** An item's JSON body, inflated if it was stored deflated (items of any age: `body` or `bodyZ`). */
export const bodyJson = (item: Item): string =>
  item.bodyZ instanceof Uint8Array ? inflateRawSync(item.bodyZ).toString('utf8') : String(item.body);

export const bodyOf = <T>(item: Item): T => JSON.parse(bodyJson(item)) as T;

/**
 * A run record item's body with what the codec left out put back; `definition` is the snapshot an
 * item naming one (`def`, snapshots.ts) stands for (items from before snapshots embed it).
 */
export const runOf = (item: Item, definition?: WorkflowDef): WorkflowRecord =>
  decodeRun(bodyJson(item), definition);

/**
 * A run's own fields without decoding its tasks (which needs its definition): what its search
 * document is made of (the change stream's images).
 */
export function runFieldsOf(item: Item): RunFields {
  const {
    tasks: _tasks,
    shapes: _shapes,
    codec: _codec,
    workflowDefinition: _def,
    ...fields
  } = JSON.parse(bodyJson(item)) as WorkflowRecord & { shapes?: unknown; codec?: unknown };
  return fields;
}

/** A task row's workflow task without its reference name: what its snapshot holds (`wt`). */
export type TaskShape = Omit<WorkflowTask, 'taskReferenceName'>;

/** The snapshot of each frozen workflow task seen (taskShapeOf). */
const shapes = new WeakMap<WorkflowTask, TaskShape>();

/** The workflow task of a row stored as a snapshot, by the reference name the task runs under. */
export function taskOf(item: Item, shape?: TaskShape): TaskRecord {
  const task = bodyOf<TaskRecord>(item);
  if (shape) {
    const wt = Object.freeze({
      ...shape,
      taskReferenceName: baseRef(task.referenceTaskName),
    }) as WorkflowTask;
    // Written back as the very snapshot it was read from: no hashing on the row's next write.
    shapes.set(wt, shape);
    task.workflowTask = wt;
  }
  return task;
}

/** The byCorrelation key of a workflow name and correlation id (tables.ts: fixed length, any input). */
export function correlationKeyOf(workflowName: string, correlationId: string): string {
  return createHash('sha256').update(workflowName).update('\0').update(correlationId).digest('base64url');
}

/** A run's item; with `definition` (the hash of its snapshot) the record leaves the definition out. */
export function workflowItem(record: WorkflowRecord, definition?: string): Item {
  const body = storedBody(
    encodeRun(record, { withoutDefinition: definition !== undefined }),
    // The run cannot commit as it is.
    (bytes) =>
      `Run ${record.workflowId}: its record takes ${bytes} bytes deflated, more than a ` +
      `DynamoDB item holds (400 KB); it has ${record.tasks.length} tasks in its working set ` +
      '(a dynamic fork of thousands of open branches, or large branch inputs)',
  );
  return {
    ...workflowKey(record.workflowId),
    rev: record.rev,
    ...body,
    ...(definition !== undefined ? { def: definition } : {}),
    workflowName: record.workflowName,
    createTime: record.createTime,
    status: record.status,
    workflowVersion: record.workflowVersion,
    correlationId: record.correlationId,
    // Runs by start day (byStartDay): time-window searches that name no workflow type.
    startDay: startDayOf(record.workflowId, record.createTime),
    // Sparse index: only runs with a correlation id are in byCorrelation.
    ...(record.correlationId
      ? { correlationKey: correlationKeyOf(record.workflowName, record.correlationId) }
      : {}),
    // Sparse index: without these two attributes the item is not in `wakeups` at all, and a Put
    // that omits them removes it from there.
    // DynamoDB TTL (epoch seconds) deletes an expired run's item; readers hide it before that.
    ...(record.expiresAt ? { [TTL_ATTRIBUTE]: Math.ceil(record.expiresAt / 1000) } : {}),
    ...(record.wakeAt > 0 ? { wakeShard: wakeShardOf(record.workflowId), wakeAt: record.wakeAt } : {}),
  };
}

/**
 * A row of a run from before homes carries `taskId`, which puts it (and nothing else) in the byTask
 * index; a homed row is found by its key, so it stays out of the index (one write unit less per
 * row). With `shape` (the hash of the snapshot of its workflow task, taskShapeOf) the body leaves
 * the workflow task out.
 */
export function taskItem(task: TaskRecord, shape?: string): Item {
  const key = taskKey(task.workflowInstanceId, task.taskId);
  const body = storedBody(
    JSON.stringify(shape !== undefined ? withoutWorkflowTask(task) : task),
    (bytes) =>
      `Task ${task.taskId} of run ${task.workflowInstanceId}: its row takes ${bytes} bytes deflated, more ` +
      'than a DynamoDB item holds (400 KB); inputs and outputs that large belong in external payload storage',
  );
  return {
    ...key,
    ...(key.pk === task.workflowInstanceId ? { taskId: task.taskId } : {}),
    // Keys of byTaskType (the type's shard); they never change after the row is created, so updates
    // write no index row.
    taskType: taskTypeKeyOf(task.taskType, task.taskId),
    scheduledTime: task.scheduledTime,
    rev: task.rev,
    seq: task.seq,
    ...(shape !== undefined ? { wt: shape } : {}),
    ...body,
  };
}

function withoutWorkflowTask(task: TaskRecord): Omit<TaskRecord, 'workflowTask'> {
  const { workflowTask: _wt, ...rest } = task;
  return rest;
}

/**
 * What a row's workflow task snapshot holds, or undefined when the task runs under a reference
 * name its workflow task does not give (it is then kept in the row). Kept per frozen workflow task
 * (a definition's, or one read from a snapshot), so it is built once, not on every write.
 */
export function taskShapeOf(task: TaskRecord): TaskShape | undefined {
  const wt = task.workflowTask;
  if (wt.taskReferenceName !== baseRef(task.referenceTaskName)) return undefined;
  let shape = shapes.get(wt);
  if (!shape) {
    const { taskReferenceName: _ref, ...rest } = wt;
    shape = Object.isFrozen(wt) ? deepFreeze(rest) : rest;
    if (Object.isFrozen(wt)) shapes.set(wt, shape);
  }
  return shape;
}

/** The lowest log sort key of the given time (epoch ms): lines before it sort below. */
export const logSortKeyBefore = (time: number): string => digits(time, 13);

/**
 * A log item. The sort key orders a task's logs by time, then by `counter` (append order within
 * one process); the random tail keeps two processes appending in the same millisecond apart.
 */
export function logItem(log: TaskExecLog, counter: number, random: string): Item {
  return {
    pk: logPk(log.taskId),
    sk: `${digits(log.createdTime, 13)}#${digits(counter % 1e10, 10)}#${random}`,
    body: JSON.stringify(log),
    // DynamoDB TTL (epoch seconds) deletes the line up to 48 h after it expires; readers hide it before.
    ...(log.expiresAt ? { [TTL_ATTRIBUTE]: Math.ceil(log.expiresAt / 1000) } : {}),
  };
}

export interface ByNameQuery {
  KeyConditionExpression: string;
  FilterExpression?: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues: Record<string, unknown>;
}

/** The byName query of a findWorkflows call; undefined when nothing can match. */
export function byNameQuery(query: WorkflowQuery): ByNameQuery | undefined {
  const { startedAfter: after, startedBefore: before } = query;
  if (query.statuses?.length === 0) return undefined;
  if (after !== undefined && before !== undefined && after > before) return undefined;
  const names: Record<string, string> = { '#name': 'workflowName' };
  const values: Record<string, unknown> = { ':name': query.name };
  let keyCondition = '#name = :name';
  if (after !== undefined || before !== undefined) {
    names['#created'] = 'createTime';
    if (after !== undefined) values[':after'] = after;
    if (before !== undefined) values[':before'] = before;
    keyCondition +=
      after !== undefined && before !== undefined
        ? ' AND #created BETWEEN :after AND :before'
        : after !== undefined
          ? ' AND #created >= :after'
          : ' AND #created <= :before';
  }
  // Filters read only attributes the byName index projects (INCLUDE), so no item is fetched twice.
  const filters: string[] = [];
  if (query.version !== undefined) {
    names['#version'] = 'workflowVersion';
    values[':version'] = query.version;
    filters.push('#version = :version');
  }
  if (query.statuses) {
    names['#status'] = 'status';
    const placeholders = query.statuses.map((status, i) => {
      values[`:s${i}`] = status;
      return `:s${i}`;
    });
    filters.push(`#status IN (${placeholders.join(', ')})`);
  }
  if (query.correlationId !== undefined) {
    names['#correlation'] = 'correlationId';
    values[':correlation'] = query.correlationId;
    filters.push('#correlation = :correlation');
  }
  return {
    KeyConditionExpression: keyCondition,
    FilterExpression: filters.length > 0 ? filters.join(' AND ') : undefined,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}
