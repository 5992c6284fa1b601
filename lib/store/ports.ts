/**
 * Storage ports in domain words. Each has an in-memory adapter (store/memory) and a DynamoDB adapter
 * (store/dynamodb); one contract suite per port (test/store) runs against both. Rules that hold for
 * every backend (validation, defaults, audit times) live above the ports, in the services.
 */
import type { TaskDef, WorkflowDef } from '../model/definitions.ts';
import type { TaskRecord, WorkflowRecord, WorkflowStatus } from '../model/execution.ts';
import type { Tag } from '../model/tags.ts';

/**
 * The tags of definitions, by name (lib/model/tags.ts), kept in the definitions store beside what
 * they tag: a workflow's belong to its name, shared by every version. They go when the definition
 * goes (a workflow's with its last version). Definitions themselves are stored and read without
 * them (a run's snapshot holds none); the metadata service puts them into its answers.
 */
export interface DefinitionTags {
  /** The name's tags, in order; [] when it has none (or there is no definition of that name). */
  tags(name: string): Promise<Tag[]>;
  /** The tags of every name that has some. */
  allTags(): Promise<Map<string, Tag[]>>;
  /**
   * Stores what `change` makes of the name's current tags, as one atomic change: of concurrent
   * changes none is lost (an adapter that cannot lock writes conditionally and calls `change` again
   * on what it reads next). Answers the tags stored, or undefined, storing nothing, when there is
   * no definition of that name.
   */
  changeTags(name: string, change: (tags: Tag[]) => Tag[]): Promise<Tag[] | undefined>;
}

export interface WorkflowDefStore extends DefinitionTags {
  /**
   * Stores one version. With `overwrite` false an existing (name, version) is a ConflictError;
   * with it true the version is replaced.
   */
  put(def: WorkflowDef, options: { overwrite: boolean }): Promise<void>;
  /** One version, or the highest version when `version` is undefined. */
  get(name: string, version?: number): Promise<WorkflowDef | undefined>;
  /** Every version of one name, ascending. */
  versions(name: string): Promise<WorkflowDef[]>;
  /** Every version of every name, by name then version. */
  list(): Promise<WorkflowDef[]>;
  /** Removes one version (and the name's tags with its last one); false when it did not exist. */
  delete(name: string, version: number): Promise<boolean>;
}

/**
 * How fresh a read must be. By default a read sees every write acknowledged before it. With
 * `fresh: false` the caller accepts an answer that may miss the last moments' writes (DynamoDB: an
 * eventually consistent read, half the read units), because it acts on what it reads only through
 * writes conditional on the `rev` it read (a stale answer makes the write fail and the retry reads
 * fresh), and reads fresh again before acting on absence or on a state it would not write over.
 * Adapters whose every read is fresh (memory, embedded) ignore it.
 */
export interface ReadOptions {
  /** false: a slightly stale answer will do (default true). */
  fresh?: boolean;
}

export interface TaskDefStore extends DefinitionTags {
  /** Creates or replaces; the name's tags stay as they are. */
  put(def: TaskDef): Promise<void>;
  get(name: string): Promise<TaskDef | undefined>;
  /**
   * Many at once (for workflow validation and scheduling); missing names are absent from the map.
   * With `fresh: false` a definition found may be one replaced moments ago; a name not found is
   * read again fresh, so a definition registered just before is never missed.
   */
  getMany(names: readonly string[], options?: ReadOptions): Promise<Map<string, TaskDef>>;
  /** Every task definition, by name. */
  list(): Promise<TaskDef[]>;
  /** Removes one, with its tags; false when it did not exist. */
  delete(name: string): Promise<boolean>;
}

/**
 * The ports the engine works over. The host's bundle (lib/runtime/stores.ts, every capability's
 * stores together) always includes them.
 */
export interface Stores {
  workflowDefs: WorkflowDefStore;
  taskDefs: TaskDefStore;
  executions: ExecutionStore;
  queue: TaskQueue;
  pollData: PollDataStore;
  limits: PollLimitStore;
  /** Releases connections and embedded servers; every acknowledged write is already durable. */
  close(): Promise<void>;
}

// ---- executions (engine) ----

export interface TaskExecLog {
  log: string;
  taskId: string;
  createdTime: number;
  /** Epoch ms after which the line is gone (`service.task.log-retention`); the DynamoDB adapter writes it as `ttl`. */
  expiresAt?: number;
}

export interface PollData {
  queueName: string;
  domain?: string;
  workerId?: string;
  lastPollTime: number;
  /** Epoch ms after which the row is gone (`service.task.poll-data-retention`); written as `ttl` on DynamoDB. */
  expiresAt?: number;
}

/** An idempotency key to point at a run (StartWorkflowRequest.idempotencyKey, execute's requestId). */
export interface IdempotencyClaim {
  /** Keys are scoped to a workflow name: the same key under two names claims two things. */
  workflowName: string;
  key: string;
  /** The run the key is to point at. */
  workflowId: string;
  /** Move the key off this run (its successor starts); only if it still points there. */
  replaces?: string;
}

/** What the runs index holds of a run. */
export interface RunIndexRow {
  workflowId: string;
  workflowName: string;
  workflowVersion: number;
  status: WorkflowStatus;
  correlationId?: string;
  createTime: number;
}

/** An index read chosen by the search planner. */
export interface RunIndexRead {
  /** Runs of these names; absent for every run. */
  names?: readonly string[];
  /** Inclusive createTime bounds. */
  startFrom?: number;
  startTo?: number;
  /**
   * Without names: read the runs by start day (byStartDay on DynamoDB), the days from `startFrom`
   * through `startTo`, rather than every run. The planner sets both bounds.
   */
  byStartDay?: boolean;
  /**
   * Words every matching run's text contains (lowercase, as free text matches them; never with
   * whitespace or a character JSON escapes). A store that can tell from a run's stored form that
   * it cannot contain them leaves that run out (the embedded store reads the stored text instead of
   * decoding the run); others ignore this. The caller still checks every run it gets.
   */
  containing?: readonly string[];
}

/**
 * Removes what a run leaves behind once DynamoDB's TTL deleted its record (retention; the change
 * stream tells, so only the DynamoDB adapter has it: lib/jobs/expired-runs.ts).
 */
export interface ExpiredRunRemover {
  /**
   * Deletes the task rows of run `workflowId` scheduled before `before` (epoch ms: when its record
   * was deleted), and their log lines written before then. Does nothing while a run of that id
   * exists again (ids an idempotency key or an event derives can come back), and a row or line
   * written after `before` is never deleted, so a run created again meanwhile loses nothing. Never
   * deletes a run's record. Running it twice deletes nothing more.
   */
  removeExpiredRun(workflowId: string, before: number): Promise<void>;
}

/**
 * The execution store, split by who reads it (as Conductor splits ExecutionDAO, IndexDAO and
 * QueueDAO): a reader that needs one part takes that part, a decorator (lib/store/decorate.ts)
 * states only the methods it changes. Each adapter implements every part (ExecutionStore).
 */

/**
 * Run records by id: the engine's read-change-commit of a run. A write hands its record (or row)
 * over: the caller does not change it, or anything in it, afterwards (the memory store keeps the
 * object itself, frozen). What a read answers is the caller's to change, but for the parts it
 * shares with the stored record, which are frozen: payloads and lists are replaced, not changed in
 * place.
 */
export interface RunStore {
  /** Stores a new run; a ConflictError when the id exists (a re-run start converges on the first). */
  createWorkflow(record: WorkflowRecord): Promise<void>;
  getWorkflow(workflowId: string): Promise<WorkflowRecord | undefined>;
  /**
   * Replaces the record if its stored `rev` still equals `expectedRev` (the record passed carries
   * the next rev). Otherwise a VersionConflictError: someone else committed first.
   */
  commitWorkflow(record: WorkflowRecord, expectedRev: number): Promise<void>;
  /** Removes the run and all its task rows and logs. */
  removeWorkflow(workflowId: string): Promise<void>;
  /**
   * Keeps a run's stored record until at least `until` (epoch ms): an expired run's record is
   * deleted by DynamoDB's TTL, which would free its id for a new run. Used before an idempotency
   * key moves off an expired run, so a start that read the key before the move cannot create that
   * id again. False when no record is stored (it is gone already).
   */
  holdRun(workflowId: string, until: number): Promise<boolean>;
}

/** Task rows of a run: what the decider schedules and workers poll and update. */
export interface TaskRows {
  /**
   * Creates task rows that do not exist yet. A row that already exists is left alone and returned
   * instead: a decide re-run after a crash adopts what the first run wrote (a worker may have
   * polled it meanwhile).
   */
  createTasks(tasks: TaskRecord[]): Promise<TaskRecord[]>;
  /** Replaces a task row if its stored `rev` equals `expectedRev`; else VersionConflictError. */
  updateTask(task: TaskRecord, expectedRev: number): Promise<void>;
  /**
   * One row. With `fresh: false` (ReadOptions) the row may be an older revision, or missing when
   * it was created moments ago: read it fresh before acting on absence or on a status.
   */
  getTask(workflowId: string, taskId: string, options?: ReadOptions): Promise<TaskRecord | undefined>;
  /** Rows by id, those that exist; `fresh: false` as for getTask (each row may be older, or missing). */
  getTasks(workflowId: string, taskIds: readonly string[], options?: ReadOptions): Promise<TaskRecord[]>;
  /** Looks a task up by id alone (routes that are given only a task id). */
  findTask(taskId: string): Promise<TaskRecord | undefined>;
  /**
   * Every task row of a run's partition, by seq (ties by scheduled time: run-rows.ts byRunOrder),
   * including rows an earlier run under the same id left: readers of a run's rows take rowsOfRun.
   */
  listTasks(workflowId: string): Promise<TaskRecord[]>;
  /** Removes task rows of a run (rerun/restart). */
  deleteTasks(workflowId: string, taskIds: readonly string[]): Promise<void>;
}

/** Reads across runs: the API's queries by name and correlation, and search (lib/search). */
export interface RunQueries {
  /** Ids of runs of a definition with the given statuses, optionally limited to a start-time window. */
  findWorkflows(query: {
    name: string;
    version?: number;
    statuses?: readonly WorkflowStatus[];
    correlationId?: string;
    startedAfter?: number;
    startedBefore?: number;
  }): Promise<WorkflowRecord[]>;
  /**
   * Search reads (lib/search). The rows of the runs index (byName on DynamoDB) for the given names,
   * with the createTime window as the key condition, or of every run without names (a scan); in
   * ascending createTime. Rows carry what the index projects, so a query over those fields is
   * answered, counted and paged without reading a record.
   */
  runIndex(read: RunIndexRead): Promise<RunIndexRow[]>;
  /** Many runs by id (missing ones left out), in the order asked. */
  getWorkflowsById(workflowIds: readonly string[]): Promise<WorkflowRecord[]>;
  /** Task rows of the given runs, or of every run without ids (a scan). */
  scanTasks(workflowIds?: readonly string[]): Promise<TaskRecord[]>;
  /** Task rows of the given task types (the byTaskType index on DynamoDB). */
  tasksOfTypes(taskTypes: readonly string[]): Promise<TaskRecord[]>;
}

/** The sweeper's reads: runs that are due a decide. */
export interface RunWakeUps {
  /**
   * Ids of up to `limit` runs that are not finished (RUNNING or PAUSED), read from the runs
   * themselves rather than from an index. The local host's restart catch-up uses it: the embedded
   * store writes an item and its index entries separately, so a crash between them can leave a
   * run out of the wake-up index. A full scan on DynamoDB: for the local host only.
   */
  unfinishedWorkflows(limit: number): Promise<string[]>;
  /** Runs whose wake-up time has come (timeouts, delays, WAIT deadlines), soonest first. */
  dueWakeups(now: number, limit: number): Promise<{ workflowId: string; wakeAt: number }[]>;
}

/** Log lines of tasks (POST/GET /tasks/{taskId}/log). */
export interface TaskLogs {
  appendLogs(logs: TaskExecLog[]): Promise<void>;
  logs(taskId: string): Promise<TaskExecLog[]>;
}

/** Idempotency keys of starts (lib/workflows/idempotency.ts). */
export interface IdempotencyClaims {
  /**
   * Points the key at `claim.workflowId` if no run holds it (or, with `replaces`, if it still
   * points at that run), as one conditional write: of concurrent claims exactly one wins. Answers
   * undefined when the claim took, else the run the key points at.
   */
  claimIdempotencyKey(claim: IdempotencyClaim): Promise<string | undefined>;
}

/** What the payload sweep reads of runs (lib/payloads/sweep.ts). */
export interface PayloadReferences {
  /**
   * Every payload key that a stored run record (its tasks included) or task row names anywhere in
   * its stored text (lib/payloads/keys.ts payloadKeysIn), repeats included. Runs past their
   * retention but not yet deleted count too. A full read of the runs and rows: the sweep's alone.
   * Each key is handed to `visit` as it is read (nothing is gathered), and the answer comes once
   * every run and row was read.
   */
  payloadReferences(visit: (key: string) => void): Promise<void>;
}

/** Every part: what an adapter implements and what the engine's stack decorates. */
export interface ExecutionStore
  extends RunStore,
    TaskRows,
    RunQueries,
    RunWakeUps,
    TaskLogs,
    IdempotencyClaims,
    PayloadReferences {}

export interface QueueEntry {
  queueName: string;
  taskId: string;
  workflowId: string;
  /** 0-99; higher is served first. */
  priority: number;
  /** Epoch ms from which the entry may be handed out. */
  visibleAt: number;
  /**
   * An entry stored before entries were keyed by their order (DynamoDB: sort key = task id; such
   * entries drain after an upgrade): `remove` finds it by its task id. Set by that adapter's peek,
   * and by queueEntryOf for a row last queued before the upgrade; a push, and an adapter without
   * an old layout, ignore it.
   */
  legacy?: true;
}

/**
 * Whether two entries of one task in one queue are stored under one key (TaskQueue: an entry's key
 * is its queue, task, priority and visibleAt), the old layout aside.
 */
export const sameQueueKey = (a: QueueEntry, b: QueueEntry): boolean =>
  a.priority === b.priority && a.visibleAt === b.visibleAt;

/** Serving order (TaskQueue.peek): whether `a` goes before `b`, higher priority first, then sooner visible. */
export const servedBefore = (a: QueueEntry, b: QueueEntry): boolean =>
  a.priority !== b.priority ? a.priority > b.priority : a.visibleAt < b.visibleAt;

/**
 * Worker task queues, one per `[domain:]taskType`. Entries only say "this task may be pollable";
 * the task row's status (and the visibility it names) decides, so a stale or duplicate entry is
 * harmless.
 *
 * An entry is stored under its queue, task, priority and visibleAt: pushing the same entry again
 * changes nothing. Pushing a task with another priority or visibility may leave its previous entry
 * in place (the DynamoDB adapter does; it would need a read to find it), so a caller that knows the
 * previous entry removes it, and the claim drops one left behind as stale.
 */
export interface TaskQueue {
  push(entries: readonly QueueEntry[]): Promise<void>;
  /**
   * Up to `count` visible entries, highest priority first, then oldest. Entries stay until removed.
   * The answer may be moments old (DynamoDB reads it eventually consistent): an entry pushed just
   * before may be missing (the next look finds it), and one removed just before may be back, which
   * is harmless, as the row decides every claim.
   */
  peek(queueName: string, count: number, now: number): Promise<QueueEntry[]>;
  /**
   * Removes the entry stored under this one's key (as pushed or peeked); the task's other entries,
   * if any, stay. Removing what is absent does nothing.
   */
  remove(entry: QueueEntry): Promise<void>;
  /**
   * Removes the entries stored under these entries' keys, as `remove` does one by one, in as few
   * store calls as the adapter can (what follows a run's end takes its ended tasks' entries off
   * their queues together). Absent ones do nothing; an empty list does nothing.
   */
  removeAll(entries: readonly QueueEntry[]): Promise<void>;
  /** Entries of a queue (visible or not). */
  size(queueName: string): Promise<number>;
  /** Sizes of every non-empty queue, by name. */
  sizes(): Promise<Record<string, number>>;
}

export interface PollDataStore {
  record(data: PollData): Promise<void>;
  list(queueName?: string): Promise<PollData[]>;
}

/** A task holding a concurrency slot: enough to read its row back. */
export interface SlotHolder {
  workflowId: string;
  taskId: string;
}

/**
 * Poll-time limits kept in the store, so they hold across processes (every Lambda instance):
 * `concurrentExecLimit` as a set of slot holders per task definition, taken with a conditional
 * write; `rateLimitPerFrequency` as a counter per definition and fixed time window.
 */
export interface PollLimitStore {
  /** Takes a slot for the holder unless `limit` are held (true also when it already holds one). */
  acquire(name: string, limit: number, holder: SlotHolder): Promise<boolean>;
  /** Gives the holder's slot back; nothing when it holds none. */
  release(name: string, holder: SlotHolder): Promise<void>;
  /** Every holder of the definition's slots. */
  holders(name: string): Promise<SlotHolder[]>;
  /**
   * Counts one hand-out in the window starting at `windowStart` unless `limit` were counted there
   * already; true when counted. Windows expire on their own at `expiresAt` (epoch ms).
   */
  countInWindow(name: string, windowStart: number, limit: number, expiresAt: number): Promise<boolean>;
}
