/**
 * Definition snapshots stored once, by content (key design: tables.ts, "executions"). A run's item
 * names its definition snapshot by a hash of the snapshot's JSON (`def`) instead of embedding it,
 * and a task row names its workflow task the same way (`wt`, the task without its reference name,
 * so every branch of a dynamic fork shares one). A definition is most of a small run's record (3.0
 * of 4.6 KB for five SIMPLE tasks) and a workflow task most of a task row, and DynamoDB bills each
 * write by the item's size; every decide rewrites the run's item and every poll and update a row.
 *
 * Snapshots never change, so a process keeps the ones it has read or written: a warm function
 * neither reads nor writes one per transition. A snapshot is stored (read first: a failed
 * conditional put costs units the size of the item) before any item names it, and read
 * consistently, so a reader that sees the name always finds the snapshot.
 */
import { createHash } from 'node:crypto';
import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { WorkflowDef } from '../../model/definitions.ts';
import type { TaskRecord, WorkflowRecord } from '../../model/execution.ts';
import { deepFreeze } from '../deep-freeze.ts';
import { putIfAbsent, translate } from './errors.ts';
import { runOf, type TaskShape, taskItem, taskOf, taskShapeOf, workflowItem } from './execution-items.ts';
import type { Item } from './paging.ts';

export const SNAPSHOT_PREFIX = 'SNAP#';
export const SNAPSHOT_SK = 'SNAP';
/** Snapshots a process keeps; the least recently used beyond this are read again when needed. */
const KEPT = 1024;

const snapshotKey = (hash: string) => ({ pk: `${SNAPSHOT_PREFIX}${hash}`, sk: SNAPSHOT_SK });

export class Snapshots {
  /** hash -> the frozen value, in least-recently-used order. */
  private readonly kept = new Map<string, object>();
  /** Values this process has stored or read, by identity: hashed once, however often written. */
  private readonly hashOfValue = new WeakMap<object, string>();
  private readonly reading = new Map<string, Promise<object>>();

  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  /** The hash naming `value`, stored first unless this process already knows it is. */
  async store(value: object): Promise<string> {
    const known = this.hashOfValue.get(value);
    if (known !== undefined && this.kept.has(known)) return known;
    const json = JSON.stringify(value);
    const hash = createHash('sha256').update(json).digest('base64url');
    // Only a frozen value is known by identity: another could change after it was hashed.
    if (Object.isFrozen(value)) this.hashOfValue.set(value, hash);
    if (this.kept.has(hash)) return hash;
    const key = snapshotKey(hash);
    const stored = await this.client
      .send(
        new GetCommand({ TableName: this.table, Key: key, ConsistentRead: true, ProjectionExpression: 'pk' }),
      )
      .catch((e: unknown) => translate(e, 'snapshot read'));
    // Stored meanwhile by another process (the put finds it): the same content under the same name.
    if (!stored.Item) await putIfAbsent(this.client, this.table, { ...key, body: json }, 'snapshot write');
    this.keep(hash, deepFreeze(JSON.parse(json) as object));
    return hash;
  }

  /** The value a hash names; a name without its snapshot is a corrupt item, said as such. */
  async read<T extends object>(hash: string): Promise<T> {
    const kept = this.kept.get(hash);
    if (kept) {
      this.keep(hash, kept);
      return kept as T;
    }
    let reading = this.reading.get(hash);
    if (!reading) {
      reading = this.fetch(hash).finally(() => this.reading.delete(hash));
      this.reading.set(hash, reading);
    }
    return (await reading) as T;
  }

  private async fetch(hash: string): Promise<object> {
    const result = await this.client
      .send(new GetCommand({ TableName: this.table, Key: snapshotKey(hash), ConsistentRead: true }))
      .catch((e: unknown) => translate(e, 'snapshot read'));
    if (typeof result.Item?.body !== 'string') throw new Error(`Snapshot ${hash} is missing`);
    const value = deepFreeze(JSON.parse(result.Item.body) as object);
    this.keep(hash, value);
    return value;
  }

  private keep(hash: string, value: object): void {
    this.kept.delete(hash);
    this.kept.set(hash, value);
    this.hashOfValue.set(value, hash);
    if (this.kept.size > KEPT) this.kept.delete(this.kept.keys().next().value as string);
  }
}

/**
 * Run items and task rows with their snapshots (execution-items.ts has the item layout): writes
 * store the snapshot an item names first; reads put it back. Items from before snapshots embed
 * theirs and are read as they are.
 */
export class ExecutionCodec {
  private readonly snapshots: Snapshots;

  constructor(client: DynamoDBDocumentClient, table: string) {
    this.snapshots = new Snapshots(client, table);
  }

  async workflowItem(record: WorkflowRecord): Promise<Item> {
    return workflowItem(record, await this.snapshots.store(record.workflowDefinition));
  }

  async taskItem(task: TaskRecord): Promise<Item> {
    const shape = taskShapeOf(task);
    return taskItem(task, shape && (await this.snapshots.store(shape)));
  }

  async run(item: Item): Promise<WorkflowRecord> {
    return runOf(
      item,
      typeof item.def === 'string' ? await this.snapshots.read<WorkflowDef>(item.def) : undefined,
    );
  }

  async task(item: Item): Promise<TaskRecord> {
    return taskOf(
      item,
      typeof item.wt === 'string' ? await this.snapshots.read<TaskShape>(item.wt) : undefined,
    );
  }

  runs(items: readonly Item[]): Promise<WorkflowRecord[]> {
    return Promise.all(items.map((item) => this.run(item)));
  }

  tasks(items: readonly Item[]): Promise<TaskRecord[]> {
    return Promise.all(items.map((item) => this.task(item)));
  }
}
