/**
 * The embedded execution store: runs, task rows and logs on the embedded database (database.ts).
 *
 * What every run needs to be found is kept in memory, in the durable `run-heads` table (loaded at
 * start): its name, version, status, correlation id, create time, wake-up and revision, so the
 * revision checks, the wake-up sweep and the search index reads never touch the disk. The record
 * itself and the task rows are read on demand (LevelDB's synchronous get, a few microseconds), so
 * memory holds one small head per run, not the runs.
 *
 * Keys (ids JSON-quoted: prefix-free, so one run's rows never fall under another's prefix, and an
 * unpaired surrogate, which UTF-8 cannot hold, is stored escaped instead of replaced):
 *   x/r/<"id">             the record: `<definition hash>\n<encodeRun without definition>`
 *   x/s/<"id">             a finished run's free text, lowercased (search reads it, not the record)
 *   x/t/<"id"><"taskId">   a task row: `<rev>\n<row JSON>` (the revision read without parsing)
 *   x/o/<"taskId">         the run a task id belongs to, JSON-quoted too (findTask)
 *   x/y/<"type"><"taskId"> the task-type index (tasksOfTypes)
 *   x/l/<"taskId"><order>  a log line
 * Definition snapshots are kept once per content (`run-definitions`, by hash) and shared frozen.
 */
import { createHash } from 'node:crypto';
import type { WorkflowDef } from '../../model/definitions.ts';
import { ConflictError, VersionConflictError } from '../../model/errors.ts';
import { isTerminalWorkflow, type TaskRecord, type WorkflowRecord } from '../../model/execution.ts';
import { payloadKeysIn } from '../../payloads/keys.ts';
import { workflowText } from '../../search/summaries.ts';
import { deepFreeze } from '../deep-freeze.ts';
import { addTo, removeFrom } from '../id-index.ts';
import type { KeyedTable } from '../keyed.ts';
import { keyOf } from '../keyed.ts';
import type { ExecutionStore, IdempotencyClaim, RunIndexRead, RunIndexRow, TaskExecLog } from '../ports.ts';
import { decodeRun, encodeRun } from '../run-codec.ts';
import { matchesQuery, type WorkflowQuery } from '../run-query.ts';
import { byRunOrder } from '../run-rows.ts';
import type { EmbeddedDb } from './database.ts';
import { DurableTable } from './durable-table.ts';

/**
 * What is kept in memory of every run: its runs-index row (handed to search as it is, so a query
 * over 100,000 runs copies nothing) plus its revision and wake-up. Frozen: replaced, never changed.
 */
interface Head extends RunIndexRow {
  rev: number;
  wakeAt: number;
}

const q = JSON.stringify;
const recordKey = (workflowId: string) => `x/r/${q(workflowId)}`;
const textKey = (workflowId: string) => `x/s/${q(workflowId)}`;
const rowsPrefix = (workflowId: string) => `x/t/${q(workflowId)}`;
const rowKey = (workflowId: string, taskId: string) => `${rowsPrefix(workflowId)}${q(taskId)}`;
const ownerKey = (taskId: string) => `x/o/${q(taskId)}`;
const typePrefix = (taskType: string) => `x/y/${q(taskType)}`;
const typeKey = (taskType: string, taskId: string) => `${typePrefix(taskType)}${q(taskId)}`;
const logsPrefix = (taskId: string) => `x/l/${q(taskId)}`;
const ALL_ROWS = 'x/t/';
const ALL_RECORDS = 'x/r/';

function headOf(record: WorkflowRecord): Head {
  const head: Head = {
    workflowId: record.workflowId,
    workflowName: record.workflowName,
    workflowVersion: record.workflowVersion,
    status: record.status,
    createTime: record.createTime,
    rev: record.rev,
    wakeAt: record.wakeAt,
  };
  if (record.correlationId !== undefined) head.correlationId = record.correlationId;
  return Object.freeze(head);
}

/** A stored record names a payload kept outside it: its text does not hold that payload's. */
const EXTERNAL_PAYLOAD = /external(Input|Output)PayloadStoragePath/;
const hasExternalPayload = (record: WorkflowRecord): boolean =>
  record.externalInputPayloadStoragePath !== undefined ||
  record.externalOutputPayloadStoragePath !== undefined;
const NON_ASCII = /[\u0080-\uffff]/;
/** Where a stored text may need more than the case-insensitive search: payloads kept outside, or text beyond ASCII. */
const CLOSER_LOOK = new RegExp(`${EXTERNAL_PAYLOAD.source}|${NON_ASCII.source}`);

const rowValue = (task: TaskRecord): string => `${task.rev}\n${JSON.stringify(task)}`;
const rowOf = (value: string): TaskRecord => JSON.parse(value.slice(value.indexOf('\n') + 1)) as TaskRecord;
const revOf = (value: string): number => Number(value.slice(0, value.indexOf('\n')));

export class EmbeddedExecutionStore implements ExecutionStore {
  private readonly heads: KeyedTable<Head>;
  private readonly definitions: KeyedTable<WorkflowDef>;
  private readonly idempotencyKeys: KeyedTable<string>;
  /** Derived from the heads: run ids by name, by name + correlation id, and those with a wake-up. */
  private readonly byName = new Map<string, Set<string>>();
  private readonly byCorrelation = new Map<string, Set<string>>();
  private readonly waking = new Set<string>();
  /** Definition snapshots by identity (frozen, so they cannot change after hashing). */
  private readonly hashOf = new WeakMap<object, string>();
  private logOrder = 0;
  /** This instance's start time, so lines of one millisecond from two lives of the store never collide. */
  private readonly bootOrder = String(Date.now()).padStart(16, '0');
  /** Writes of this instance are refused once the database reloaded after a failed write. */
  private readonly db: {
    get(key: string): string | undefined;
    put(key: string, value: string): void;
    del(key: string): void;
    entries: EmbeddedDb['entries'];
  };

  constructor(database: EmbeddedDb) {
    const generation = database.generation;
    this.db = {
      get: (key) => database.get(key),
      put: (key, value) => database.put(key, value, generation),
      del: (key) => database.del(key, generation),
      entries: (prefix, end) => database.entries(prefix, end),
    };
    const db = database;
    this.heads = new DurableTable<Head>(db, 'run-heads');
    this.definitions = new DurableTable<WorkflowDef>(db, 'run-definitions');
    this.idempotencyKeys = new DurableTable<string>(db, 'idempotency-keys');
    for (const [hash, def] of this.definitions) this.hashOf.set(deepFreeze(def), hash);
    for (const [id, head] of this.heads) this.index(id, Object.freeze(head));
  }

  async createWorkflow(record: WorkflowRecord): Promise<void> {
    if (this.heads.has(record.workflowId))
      throw new ConflictError(`Workflow ${record.workflowId} already exists`);
    this.write(record);
  }

  async getWorkflow(workflowId: string): Promise<WorkflowRecord | undefined> {
    return this.read(workflowId);
  }

  async commitWorkflow(record: WorkflowRecord, expectedRev: number): Promise<void> {
    const current = this.heads.get(record.workflowId);
    if (!current || current.rev !== expectedRev) {
      throw new VersionConflictError(
        `Workflow ${record.workflowId} changed concurrently (expected rev ${expectedRev})`,
      );
    }
    this.write(record);
  }

  async removeWorkflow(workflowId: string): Promise<void> {
    this.forget(workflowId);
    const rows: TaskRecord[] = [];
    for await (const [, value] of this.db.entries(rowsPrefix(workflowId))) rows.push(rowOf(value));
    for (const row of rows) this.deleteRow(workflowId, row);
    await this.deleteLogs(rows.map((row) => row.taskId));
  }

  async createTasks(tasks: TaskRecord[]): Promise<TaskRecord[]> {
    return tasks.map((t) => {
      const key = rowKey(t.workflowInstanceId, t.taskId);
      const existing = this.db.get(key);
      if (existing !== undefined) return rowOf(existing);
      const value = rowValue(t);
      this.db.put(key, value);
      this.db.put(ownerKey(t.taskId), q(t.workflowInstanceId));
      this.db.put(typeKey(t.taskType, t.taskId), '');
      return rowOf(value);
    });
  }

  async updateTask(t: TaskRecord, expectedRev: number): Promise<void> {
    const key = rowKey(t.workflowInstanceId, t.taskId);
    const current = this.db.get(key);
    if (current === undefined || revOf(current) !== expectedRev) {
      throw new VersionConflictError(`Task ${t.taskId} changed concurrently (expected rev ${expectedRev})`);
    }
    this.db.put(key, rowValue(t));
  }

  async getTask(workflowId: string, taskId: string): Promise<TaskRecord | undefined> {
    const value = this.db.get(rowKey(workflowId, taskId));
    return value === undefined ? undefined : rowOf(value);
  }

  async getTasks(workflowId: string, taskIds: readonly string[]): Promise<TaskRecord[]> {
    return taskIds.flatMap((taskId) => {
      const value = this.db.get(rowKey(workflowId, taskId));
      return value === undefined ? [] : [rowOf(value)];
    });
  }

  async findTask(taskId: string): Promise<TaskRecord | undefined> {
    const owner = this.db.get(ownerKey(taskId));
    return owner === undefined ? undefined : this.getTask(JSON.parse(owner) as string, taskId);
  }

  async listTasks(workflowId: string): Promise<TaskRecord[]> {
    const rows: TaskRecord[] = [];
    for await (const [, value] of this.db.entries(rowsPrefix(workflowId))) rows.push(rowOf(value));
    return rows.sort(byRunOrder);
  }

  async deleteTasks(workflowId: string, taskIds: readonly string[]): Promise<void> {
    for (const taskId of taskIds) {
      const value = this.db.get(rowKey(workflowId, taskId));
      if (value !== undefined) this.deleteRow(workflowId, rowOf(value));
    }
    await this.deleteLogs(taskIds);
  }

  async findWorkflows(query: WorkflowQuery): Promise<WorkflowRecord[]> {
    const ids =
      query.correlationId !== undefined
        ? this.byCorrelation.get(correlationKey(query.name, query.correlationId))
        : this.byName.get(query.name);
    const matching: Head[] = [];
    for (const id of ids ?? []) {
      const head = this.heads.get(id);
      if (head && matchesQuery(head, query)) matching.push(head);
    }
    matching.sort((a, b) => a.createTime - b.createTime);
    return matching.flatMap((head) => this.read(head.workflowId) ?? []);
  }

  async runIndex(read: RunIndexRead): Promise<RunIndexRow[]> {
    const rows: RunIndexRow[] = [];
    const words = (read.containing ?? []).map((word) => ({
      word,
      pattern: new RegExp(word.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&'), 'i'),
    }));
    const add = (head: Head | undefined) => {
      if (!head) return;
      if (read.startFrom !== undefined && head.createTime < read.startFrom) return;
      if (read.startTo !== undefined && head.createTime > read.startTo) return;
      if (words.length > 0 && !this.mayContain(head.workflowId, words)) return;
      rows.push(head);
    };
    if (read.names) {
      for (const name of read.names) for (const id of this.byName.get(name) ?? []) add(this.heads.get(id));
    } else {
      for (const head of this.heads.values()) add(head);
    }
    return rows.sort((a, b) => a.createTime - b.createTime);
  }

  /**
   * Whether a run's text may hold every word: read from its stored JSON, which holds the text's
   * parts as they are (summaries.ts workflowText), without decoding it. A run whose payloads are
   * stored outside its record may hold them there.
   */
  private mayContain(workflowId: string, words: readonly { word: string; pattern: RegExp }[]): boolean {
    const text = this.db.get(textKey(workflowId));
    if (text !== undefined) return words.every(({ word }) => text.includes(word));
    const stored = this.db.get(recordKey(workflowId));
    if (stored === undefined) return false;
    if (words.every(({ pattern }) => pattern.test(stored))) return true;
    // One more pass over the text finds both reasons to look closer (most runs have neither).
    if (!CLOSER_LOOK.test(stored)) return false;
    if (EXTERNAL_PAYLOAD.test(stored)) return true;
    // The case-insensitive search folds ASCII as toLowerCase does; other letters may fold
    // differently (the Kelvin sign lowercases to k), so text beyond ASCII is lowercased itself.
    if (!NON_ASCII.test(stored)) return false;
    const lower = stored.toLowerCase();
    return words.every(({ word }) => lower.includes(word));
  }

  async getWorkflowsById(workflowIds: readonly string[]): Promise<WorkflowRecord[]> {
    return workflowIds.flatMap((id) => this.read(id) ?? []);
  }

  async tasksOfTypes(taskTypes: readonly string[]): Promise<TaskRecord[]> {
    const out: TaskRecord[] = [];
    for (const type of new Set(taskTypes)) {
      const prefix = typePrefix(type);
      const taskIds: string[] = [];
      for await (const [key] of this.db.entries(prefix)) taskIds.push(JSON.parse(key.slice(prefix.length)));
      for (const taskId of taskIds) {
        const row = await this.findTask(taskId);
        if (row) out.push(row);
      }
    }
    return out;
  }

  async scanTasks(workflowIds?: readonly string[]): Promise<TaskRecord[]> {
    if (workflowIds) {
      const out: TaskRecord[] = [];
      for (const id of workflowIds) {
        for await (const [, value] of this.db.entries(rowsPrefix(id))) out.push(rowOf(value));
      }
      return out;
    }
    const out: TaskRecord[] = [];
    for await (const [, value] of this.db.entries(ALL_ROWS)) out.push(rowOf(value));
    return out;
  }

  async payloadReferences(visit: (key: string) => void): Promise<void> {
    // The stored text as it is: records (`<hash>\n<encoded run>`) and rows (`<rev>\n<row JSON>`).
    for (const prefix of [ALL_RECORDS, ALL_ROWS]) {
      for await (const [, value] of this.db.entries(prefix)) payloadKeysIn(value).forEach(visit);
    }
  }

  async unfinishedWorkflows(limit: number): Promise<string[]> {
    const out: string[] = [];
    for (const [workflowId, head] of this.heads) {
      if (out.length >= limit) break;
      if (head.status === 'RUNNING' || head.status === 'PAUSED') out.push(workflowId);
    }
    return out;
  }

  async dueWakeups(now: number, limit: number): Promise<{ workflowId: string; wakeAt: number }[]> {
    const due: { workflowId: string; wakeAt: number }[] = [];
    for (const workflowId of this.waking) {
      const wakeAt = this.heads.get(workflowId)?.wakeAt ?? 0;
      if (wakeAt > 0 && wakeAt <= now) due.push({ workflowId, wakeAt });
    }
    return due.sort((a, b) => a.wakeAt - b.wakeAt).slice(0, limit);
  }

  async appendLogs(logs: TaskExecLog[]): Promise<void> {
    for (const log of logs) {
      // Ordered by the time written, then by this process's order of appends.
      const order = `${String(log.createdTime).padStart(16, '0')}${this.bootOrder}${String(this.logOrder++).padStart(12, '0')}`;
      this.db.put(`${logsPrefix(log.taskId)}${order}`, JSON.stringify(log));
    }
  }

  async logs(taskId: string): Promise<TaskExecLog[]> {
    const out: TaskExecLog[] = [];
    for await (const [, value] of this.db.entries(logsPrefix(taskId))) out.push(JSON.parse(value));
    return out;
  }

  async holdRun(workflowId: string): Promise<boolean> {
    // Nothing here deletes an expired run's record: it is kept as long as any hold.
    return this.heads.has(workflowId);
  }

  async claimIdempotencyKey(claim: IdempotencyClaim): Promise<string | undefined> {
    const key = keyOf(claim.workflowName, claim.key);
    const held = this.idempotencyKeys.get(key);
    if (held !== undefined && held !== claim.replaces) return held;
    this.idempotencyKeys.set(key, claim.workflowId);
    return undefined;
  }

  /** Stores a run's record and head (the checks are the caller's). */
  private write(record: WorkflowRecord): void {
    const hash = this.definitionHash(record.workflowDefinition);
    this.db.put(recordKey(record.workflowId), `${hash}\n${encodeRun(record, { withoutDefinition: true })}`);
    // A finished run rarely changes again, and most runs a search reads are finished: its text is
    // written once, so free text reads a few hundred bytes instead of the record. A run whose
    // payloads are kept outside its record has none (its text is not all here).
    const previousHead = this.heads.get(record.workflowId);
    if (isTerminalWorkflow(record.status) && !hasExternalPayload(record)) {
      this.db.put(textKey(record.workflowId), workflowText(record).toLowerCase());
    } else if (previousHead && isTerminalWorkflow(previousHead.status))
      this.db.del(textKey(record.workflowId));
    const previous = this.heads.get(record.workflowId);
    if (previous) this.unindex(record.workflowId, previous);
    const head = headOf(record);
    this.heads.set(record.workflowId, head);
    this.index(record.workflowId, head);
  }

  private read(workflowId: string): WorkflowRecord | undefined {
    const value = this.db.get(recordKey(workflowId));
    if (value === undefined) return undefined;
    const newline = value.indexOf('\n');
    const definition = this.definitions.get(value.slice(0, newline));
    if (!definition) throw new Error(`Run ${workflowId}: its definition snapshot is missing`);
    return decodeRun(value.slice(newline + 1), definition);
  }

  /** The hash naming a definition snapshot, stored first when new. */
  private definitionHash(def: WorkflowDef): string {
    const known = this.hashOf.get(def);
    if (known !== undefined) return known;
    const json = JSON.stringify(def);
    const hash = createHash('sha256').update(json).digest('base64url');
    if (!this.definitions.has(hash)) this.definitions.set(hash, deepFreeze(JSON.parse(json) as WorkflowDef));
    // Only a frozen value is known by identity: another could change after it was hashed.
    if (Object.isFrozen(def)) this.hashOf.set(def, hash);
    return hash;
  }

  private forget(workflowId: string): void {
    const head = this.heads.get(workflowId);
    if (head) this.unindex(workflowId, head);
    this.heads.delete(workflowId);
    this.db.del(recordKey(workflowId));
    this.db.del(textKey(workflowId));
  }

  private deleteRow(workflowId: string, row: TaskRecord): void {
    this.db.del(rowKey(workflowId, row.taskId));
    this.db.del(typeKey(row.taskType, row.taskId));
    if (this.db.get(ownerKey(row.taskId)) === q(workflowId)) this.db.del(ownerKey(row.taskId));
  }

  private async deleteLogs(taskIds: readonly string[]): Promise<void> {
    for (const taskId of taskIds) {
      const keys: string[] = [];
      for await (const [key] of this.db.entries(logsPrefix(taskId))) keys.push(key);
      for (const key of keys) this.db.del(key);
    }
  }

  private index(id: string, head: Head): void {
    addTo(this.byName, head.workflowName, id);
    if (head.correlationId !== undefined)
      addTo(this.byCorrelation, correlationKey(head.workflowName, head.correlationId), id);
    if (head.wakeAt > 0) this.waking.add(id);
  }

  private unindex(id: string, head: Head): void {
    removeFrom(this.byName, head.workflowName, id);
    if (head.correlationId !== undefined) {
      removeFrom(this.byCorrelation, correlationKey(head.workflowName, head.correlationId), id);
    }
    this.waking.delete(id);
  }
}

const correlationKey = (name: string, correlationId: string) => keyOf(name, correlationId);
