/**
 * Large payloads at the store boundary: an ExecutionStore decorator that keeps inputs and outputs
 * over a threshold in the payload store (with Conductor's `external...PayloadStoragePath` set and
 * `{}` in the record) and puts them back on every read. Everything above the store (the decider and
 * its templating, the API views, polls, operations) sees whole payloads and needs no change; what a
 * DynamoDB item holds stays far below its 400 KB cap. Resolving on read is the one point every
 * reader passes; payloads are immutable under their content key, so a per-process cache makes a
 * run's repeated reads cost one parse each, not one fetch.
 *
 * On write the path fields are derived from the data, never trusted: an engine copy of a task
 * (a retry, a reset) that carries an old path with new data stores the new data. Two exceptions
 * take a path as the data's source: an upload key (a client wrote the payload through a WRITE
 * location and sent the path: a worker's large output, a start's large input), and, when a run is
 * created, any payload key (a client starting a run with the input of an earlier one).
 */
import { ValidationError } from '../model/errors.ts';
import type { TaskRecord, WorkflowRecord } from '../model/execution.ts';
import { decorate } from '../store/decorate.ts';
import type { ExecutionStore } from '../store/ports.ts';
import { contentKey, isContentKey, isPayloadKey, isUploadKey } from './keys.ts';
import type { PayloadStore } from './ports.ts';

export interface ExternalizeOptions {
  /** A payload whose JSON is larger than this many bytes is stored externally. */
  thresholdBytes: number;
  /**
   * The run record embeds its tasks: when its inline payloads together exceed this, the largest
   * go external too, so many payloads under the threshold cannot outgrow an item either.
   */
  recordBudgetBytes: number;
  /** Bytes of payload JSON kept in the per-process read cache. */
  cacheBytes?: number;
  /** The time of a put, for PUT_MEMORY_MS (a test's clock; the system clock by default). */
  now?: () => number;
}

/**
 * How long a process trusts a payload it put itself to be still stored, and skips putting the same
 * content again: the payload sweep (sweep.ts) never reclaims a payload written that recently
 * (its grace period is far longer), so the skip is safe. A payload this process only read, or put
 * longer ago, is put again: the sweep may have reclaimed it since, and the put brings it back.
 */
export const PUT_MEMORY_MS = 3_600_000;

/** Keys a process remembers putting (each about 100 bytes). */
const PUT_MEMORY_KEYS = 10_000;

type Payload = Record<string, unknown>;
type DataKey = 'input' | 'output' | 'inputData' | 'outputData';
type PathKey = 'externalInputPayloadStoragePath' | 'externalOutputPayloadStoragePath';
const RUN_PAIRS: readonly [DataKey, PathKey][] = [
  ['input', 'externalInputPayloadStoragePath'],
  ['output', 'externalOutputPayloadStoragePath'],
];
const TASK_PAIRS: readonly [DataKey, PathKey][] = [
  ['inputData', 'externalInputPayloadStoragePath'],
  ['outputData', 'externalOutputPayloadStoragePath'],
];

/** What a payload moved out leaves in the record: its path ("sha256/" and 64 hex digits) and key. */
const PATH_BYTES = 110;

/** A payload left inline by a write, with its size, in case the record budget needs it moved. */
interface Inline {
  owner: Record<string, unknown>;
  pair: readonly [DataKey, PathKey];
  /** The payload as stored; computed only when it is externalized or may be near the threshold. */
  json?: string;
  /** Its size in bytes, or an upper bound of it for a payload clearly under the threshold. */
  bytes: number;
}

/**
 * The execution store with payloads over the threshold kept in `payloads`: writes of runs and task
 * rows store them there, reads of runs and task rows put them back. Removing a run leaves its
 * payloads: a content key may be shared with other runs, so the payload sweep (sweep.ts), which
 * reads every stored reference, is what reclaims them. Search reads pass through unresolved: results name the
 * external payload paths (as Conductor's index does) rather than reading every candidate's payloads.
 */
export function externalizingExecutions(
  inner: ExecutionStore,
  payloads: PayloadStore,
  options: ExternalizeOptions,
): ExecutionStore {
  const codec = new PayloadCodec(payloads, options);
  const resolveRun = (record: WorkflowRecord) => codec.resolveRun(record);
  const resolveTask = (row: TaskRecord) => codec.resolveTask(row);
  return decorate<ExecutionStore>(inner, {
    createWorkflow: async (record) => inner.createWorkflow(await codec.slimRun(record, true)),
    getWorkflow: async (workflowId) => {
      const record = await inner.getWorkflow(workflowId);
      return record && resolveRun(record);
    },
    commitWorkflow: async (record, expectedRev) =>
      inner.commitWorkflow(await codec.slimRun(record, false), expectedRev),
    createTasks: async (tasks) => {
      const slim = await Promise.all(tasks.map((task) => codec.slimTask(task)));
      return Promise.all((await inner.createTasks(slim)).map(resolveTask));
    },
    updateTask: async (task, expectedRev) => inner.updateTask(await codec.slimTask(task), expectedRev),
    getTask: async (workflowId, taskId, options) => {
      const row = await inner.getTask(workflowId, taskId, options);
      return row && resolveTask(row);
    },
    getTasks: async (workflowId, taskIds, options) =>
      Promise.all((await inner.getTasks(workflowId, taskIds, options)).map(resolveTask)),
    findTask: async (taskId) => {
      const row = await inner.findTask(taskId);
      return row && resolveTask(row);
    },
    listTasks: async (workflowId) => Promise.all((await inner.listTasks(workflowId)).map(resolveTask)),
    findWorkflows: async (query) => Promise.all((await inner.findWorkflows(query)).map(resolveRun)),
  });
}

/** Moves payloads out of records on write and back in on read, with a cache of what it read. */
class PayloadCodec {
  private readonly cache: PayloadCache;
  /** When this process last put each content key (oldest first): PUT_MEMORY_MS. */
  private readonly puts = new Map<string, number>();
  private readonly now: () => number;
  /**
   * The bound `plain` took of a frozen payload (one that cannot change: the memory store keeps
   * what it stores frozen through, lib/store/deep-freeze.ts), so the payloads a run's commits
   * carry again and again are walked once, not on every write of the run.
   */
  private readonly frozenBytes = new WeakMap<object, number>();

  constructor(
    private readonly payloads: PayloadStore,
    private readonly options: ExternalizeOptions,
  ) {
    this.cache = new PayloadCache(options.cacheBytes ?? 32 * 1024 * 1024);
    this.now = options.now ?? Date.now;
  }

  // ---- write: externalize ----

  /** A copy of the run to store; the caller's record (and its tasks) are left untouched. */
  async slimRun(record: WorkflowRecord, creating: boolean): Promise<WorkflowRecord> {
    if (this.plain([record, ...record.tasks], RUN_PAIRS, TASK_PAIRS)) return record;
    const run = await this.slim(record, RUN_PAIRS, creating);
    // Every task's payloads count against the budget, however small each is on its own (a
    // thousand branch outputs of 1 KB each).
    const tasks = await Promise.all(record.tasks.map((task) => this.slim(task, TASK_PAIRS, false)));
    const slim = { ...run.record, tasks: tasks.map((t) => t.record) };
    const inline = [...run.inline, ...tasks.flatMap((t) => t.inline)];
    let total = inline.reduce((sum, field) => sum + field.bytes, 0);
    if (total > this.options.recordBudgetBytes) {
      // The bounds may overstate: measure exactly before moving anything out for the budget.
      for (const field of inline) {
        if (field.json !== undefined) continue;
        field.json = JSON.stringify(field.owner[field.pair[0]] ?? {});
        field.bytes = Buffer.byteLength(field.json);
      }
      total = inline.reduce((sum, field) => sum + field.bytes, 0);
    }
    // Largest first: the fewest payloads moved out to fit the record in its budget (one no larger
    // than the path it would leave would not help).
    for (const field of inline.sort((a, b) => b.bytes - a.bytes)) {
      if (total <= this.options.recordBudgetBytes || field.bytes <= PATH_BYTES) break;
      await this.externalize(field);
      total -= field.bytes - PATH_BYTES;
    }
    return slim;
  }

  async slimTask(task: TaskRecord): Promise<TaskRecord> {
    if (this.plain([task], TASK_PAIRS, TASK_PAIRS)) return task;
    return (await this.slim(task, TASK_PAIRS, false)).record;
  }

  /**
   * The common case, checked without copying or serializing: no payload path is set and every
   * payload is clearly under the threshold, the lot under the record budget. Such a record is
   * stored as it is. `first` holds the pairs of the first record, `rest` of the others.
   */
  private plain(
    records: readonly object[],
    first: readonly (readonly [DataKey, PathKey])[],
    rest: readonly (readonly [DataKey, PathKey])[],
  ): boolean {
    const limit = this.options.thresholdBytes;
    let total = 0;
    for (const [i, record] of records.entries()) {
      const owner = record as Record<string, unknown>;
      for (const [dataKey, pathKey] of i === 0 ? first : rest) {
        if (owner[pathKey] !== undefined && owner[pathKey] !== '') return false;
        const bytes = this.boundOf(owner[dataKey] ?? {}, limit);
        if (bytes > limit) return false;
        total += bytes;
      }
    }
    return total <= this.options.recordBudgetBytes;
  }

  private boundOf(payload: unknown, limit: number): number {
    if (typeof payload !== 'object' || payload === null || !Object.isFrozen(payload))
      return jsonBytesUpTo(payload, limit);
    let bytes = this.frozenBytes.get(payload);
    if (bytes === undefined) {
      bytes = jsonBytesUpTo(payload, limit);
      this.frozenBytes.set(payload, bytes);
    }
    return bytes;
  }

  private async slim<T extends object>(
    source: T,
    pairs: readonly (readonly [DataKey, PathKey])[],
    creating: boolean,
  ): Promise<{ record: T; inline: Inline[] }> {
    const owner = { ...source } as Record<string, unknown>;
    const inline: Inline[] = [];
    for (const pair of pairs) {
      const [dataKey, pathKey] = pair;
      const path = owner[pathKey];
      let data = (owner[dataKey] ?? {}) as Payload;
      delete owner[pathKey];
      if (typeof path === 'string' && path !== '') {
        if (!isPayloadKey(path)) {
          throw new ValidationError(`${pathKey} '${path}' is not a payload path issued by this server`);
        }
        // A client's upload (or, for a new run, any payload) is the data's source; a content key on
        // any other write is only what the data was when read, and is derived again below.
        if (isUploadKey(path) || creating) data = { ...data, ...(await this.readSource(path, pathKey)) };
      }
      owner[dataKey] = data;
      // Most payloads are small: a walk that stops early bounds their size without serializing
      // them on every write. Only a payload that may be near the threshold is serialized to
      // measure it exactly.
      const upper = jsonBytesUpTo(data, this.options.thresholdBytes + 1);
      let field: Inline = { owner, pair, bytes: upper };
      if (upper > this.options.thresholdBytes) {
        const json = JSON.stringify(data);
        field = { owner, pair, json, bytes: Buffer.byteLength(json) };
      }
      if (field.bytes > this.options.thresholdBytes) await this.externalize(field);
      else inline.push(field);
    }
    return { record: owner as T, inline };
  }

  private async externalize(field: Inline): Promise<void> {
    const json = field.json ?? JSON.stringify(field.owner[field.pair[0]] ?? {});
    const key = contentKey(json);
    // Content keys never change meaning, so a key this process put within PUT_MEMORY_MS needs no
    // second put; one it only read, or put before that, is put again (the sweep may have taken it).
    if (!this.putRecently(key)) {
      await this.payloads.put(key, json);
      this.rememberPut(key);
    }
    this.cache.set(key, json);
    field.owner[field.pair[0]] = {};
    field.owner[field.pair[1]] = key;
  }

  private putRecently(key: string): boolean {
    const at = this.puts.get(key);
    return at !== undefined && this.now() - at < PUT_MEMORY_MS;
  }

  private rememberPut(key: string): void {
    this.puts.delete(key);
    this.puts.set(key, this.now());
    for (const [oldest] of this.puts) {
      if (this.puts.size <= PUT_MEMORY_KEYS) break;
      this.puts.delete(oldest);
    }
  }

  private async readSource(path: string, field: PathKey): Promise<Payload> {
    const json = await this.read(path);
    if (json === undefined) throw new ValidationError(`${field}: no payload stored at '${path}'`);
    const value: unknown = JSON.parse(json);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new ValidationError(`${field}: the payload at '${path}' is not a JSON object`);
    }
    return value as Payload;
  }

  // ---- read: resolve ----

  async resolveRun(record: WorkflowRecord): Promise<WorkflowRecord> {
    if (!hasPath(record, RUN_PAIRS) && !record.tasks.some((task) => hasPath(task, TASK_PAIRS))) return record;
    await Promise.all([
      this.resolve(record, RUN_PAIRS),
      ...record.tasks.map((task) => this.resolve(task, TASK_PAIRS)),
    ]);
    return record;
  }

  async resolveTask(task: TaskRecord): Promise<TaskRecord> {
    if (hasPath(task, TASK_PAIRS)) await this.resolve(task, TASK_PAIRS);
    return task;
  }

  /** Puts the payloads back in place, in the record the inner store just handed out (not shared). */
  private async resolve(record: object, pairs: readonly (readonly [DataKey, PathKey])[]): Promise<void> {
    const owner = record as Record<string, unknown>;
    await Promise.all(
      pairs.map(async ([dataKey, pathKey]) => {
        const path = owner[pathKey];
        if (typeof path !== 'string' || !isPayloadKey(path)) return;
        const json = await this.read(path);
        // A payload gone missing leaves `{}` with the path shown, rather than failing every read.
        if (json !== undefined) owner[dataKey] = JSON.parse(json);
      }),
    );
  }

  private async read(key: string): Promise<string | undefined> {
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;
    const json = await this.payloads.get(key);
    // Only content keys are immutable; an upload key may be written again by its client.
    if (json !== undefined && isContentKey(key)) this.cache.set(key, json);
    return json;
  }
}

/** Least recently used payload JSON, bounded by total length. */
class PayloadCache {
  private readonly entries = new Map<string, string>();
  private size = 0;

  constructor(private readonly capacity: number) {}

  get(key: string): string | undefined {
    const json = this.entries.get(key);
    if (json === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, json);
    return json;
  }

  set(key: string, json: string): void {
    if (json.length > this.capacity) return;
    const previous = this.entries.get(key);
    if (previous !== undefined) {
      this.entries.delete(key);
      this.size -= previous.length;
    }
    this.entries.set(key, json);
    this.size += json.length;
    for (const [oldest, value] of this.entries) {
      if (this.size <= this.capacity) break;
      this.entries.delete(oldest);
      this.size -= value.length;
    }
  }
}

/** Whether a record names any stored payload. */
function hasPath(record: object, pairs: readonly (readonly [DataKey, PathKey])[]): boolean {
  const owner = record as Record<string, unknown>;
  return pairs.some(([, pathKey]) => typeof owner[pathKey] === 'string' && owner[pathKey] !== '');
}

/** A string JSON writes as it is, one byte a character: printable ASCII without `"` or `\\`. */
const PLAIN_STRING = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/**
 * The UTF-8 bytes `value` takes as JSON (keys, strings, numbers, punctuation), counted until `limit`
 * is passed: a cheap upper bound for small payloads that allocates nothing. Strings of plain ASCII
 * (most keys and values) count exactly, any other 6 bytes a UTF-16 unit (`\u0000`); each object
 * and array counts one comma too many.
 */
export function jsonBytesUpTo(value: unknown, limit: number): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && count <= limit) {
    const v = stack.pop();
    if (typeof v === 'string') count += stringBytesUpTo(v, limit - count);
    else if (v === null || typeof v !== 'object')
      count += 25; // numbers (-0.0000012345678901234567, -1.2345678901234568e-300), booleans, null
    else if (Array.isArray(v)) {
      count += 2 + v.length; // brackets and commas
      for (const item of v) stack.push(item);
    } else {
      for (const key of Object.keys(v)) {
        count += stringBytesUpTo(key, limit - count) + 2; // colon and comma
        stack.push((v as Record<string, unknown>)[key]);
      }
      count += 2;
    }
  }
  return count;
}

/** A quoted string's JSON bytes, from above; a string past `room` is not scanned (it is over). */
function stringBytesUpTo(s: string, room: number): number {
  if (s.length + 2 > room || PLAIN_STRING.test(s)) return s.length + 2;
  return s.length * 6 + 2;
}
