/**
 * DynamoDB key design of the engine's tables, the single source for the CDK stack, the local
 * embedded store and the tests. Each table is owned by a capability (lib/<capability>/capability.ts
 * lists it); lib/capabilities.ts gathers every capability's tables into TABLES.
 *
 * definitions (one table, two item kinds; on-demand; point-in-time recovery):
 *   workflow def  pk = "WF#<name>"    sk = "V#<version, 10 digits>"   gsi1pk = "WF"    gsi1sk =
 * "<name>#<version>"   task def      pk = "TASK#<name>"  sk = "TASK"                      gsi1pk = "TASK" 
 * gsi1sk = "<name>"   attributes: name, version, body (the definition as a JSON string: no 32-level nesting
 * limit,   no number/set marshalling surprises, one attribute to read).
 *   workflow tags pk = "WF#<name>"  sk = "TAGS"  gsi1pk = "WFTAGS"  gsi1sk = "<name>"   attributes: name,
 *   tags (a JSON list; a task def's tags are the same attribute on its own item; definitions.ts).
 *   - latest version of a name: Query pk and sk begins_with "V#", ScanIndexForward=false, Limit=1.
 *   - all versions of a name: Query pk and sk begins_with "V#".  - list everything of a kind: Query
 *   gsi1 on gsi1pk.
 *   Definitions are few (thousands) and written rarely, so one gsi1 partition per kind is fine.
 *   A start reads its task definitions with one eventually consistent BatchGetItem, then the names
 *   it did not find consistently (ports.ts ReadOptions); workflow definitions are read consistently
 *   (a start of "latest" right after a new version is registered must get it).
 *
 * executions (runs, their task rows and the tasks' logs; adapter: executions.ts):
 *   workflow   pk = "<workflowId>"       sk = "WF"
 *              body (bodyZ, deflated, when over 1 KB), def (the hash of its definition snapshot),
 *              rev (N), workflowName, createTime (N), status, workflowVersion (N), correlationId?,
 *              correlationKey = sha256("<workflowName>\0<correlationId>") only with a correlation id,
              startDay = "<yyyy-mm-dd of createTime, UTC>#<0..3, hash of the workflow id>",
 *              wakeShard = "W0".."W7" (hash of the workflow id) and wakeAt (N) only while wakeAt > 0
 *   task row   pk = "H#<home>"           sk = "T#<taskId>"
 *              body (bodyZ, deflated, when over 1 KB), wt? (the hash of its workflow task's snapshot),
 *              rev (N), seq (N), taskType = "<taskType>#<0..3, hash of the task id>" (rows written
 *              before: the bare type), scheduledTime (N)
 *              <home> is the run's home (model/ids.ts homeOf: 18 characters of a hash of the workflow
 *              id), which every task id of the run begins with, so a task id alone names its row's
 *              key. Rows of runs created before homes (no `homedTaskIds` on the record) stay under
 *              pk = "<workflowId>" and carry `taskId`, which puts them in byTask.
 *   snapshot   pk = "SNAP#<sha256 of body, base64url>"   sk = "SNAP"
 *              body: a run's definition or a row's workflow task (without its reference name), stored
 *              once by content before any item names it, never changed (snapshots.ts); in no index
 *   task log   pk = "LOG#<taskId>"       sk = "<createdTime, 13 digits>#<counter, 10 digits>#<random>"
 *              body
 *   `body` is the record as a JSON string (`bodyZ` the same deflated, over execution-items.ts
 *   DEFLATE_OVER; readers take either, so items written before deflation still read); the other
 *   attributes exist for keys, indexes and conditions. Every write of a workflow item or a task row is conditional on `rev` (or on not
 *   existing yet), which is what lets the engine run without transactions.
 *   - byTask   (GSI) pk taskId, sk sk; KEYS_ONLY; sparse. Only rows of runs from before homes carry
 *     taskId, so only they are indexed (a homed row costs no index write). findTask = a consistent
 *     GetItem of the key a homed task id names, and for an older row a Query of byTask, then a
 *     consistent GetItem (GSIs are eventually consistent). The index can be dropped once no run
 *     from before homes is kept. The sort key is the table's own `sk` only because every index
 *     here declares one.
 *   - byName   (GSI) pk workflowName, sk createTime (NUMBER); INCLUDE status, workflowVersion,
 *     correlationId. Only workflow items carry workflowName. A commit that changes none of the
 *     projected attributes costs no index write. findWorkflows = Query on name (and the time window
 *     as a key condition), filter the projected attributes, BatchGet the records.
 *   - byCorrelation (GSI) pk correlationKey, sk createTime (NUMBER); KEYS_ONLY; sparse. Runs of
 *     one workflow name sharing one correlation id: the correlated lookups Query it, then BatchGet
 *     the records and filter status/version (a correlation id is shared by a handful of runs, not
 *     by the whole name, which byName would scan). The key is a hash so that a correlation id of
 *     any length fits a key (2 KB at most) and its spelling never matters; the filter on the
 *     records compares the real values. Both key parts never change after the run is created and
 *     nothing else is projected, so the index is written once per run and never on a commit.
 *   - byStartDay (GSI) pk startDay, sk createTime (NUMBER); INCLUDE workflowName, status,
 *     workflowVersion, correlationId. Searches with a startTime window and no workflow type: one
 *     Query per day and shard of the window (the window as key condition), rows as byName's. The
 *     key never changes; like byName, a commit rewrites its row only when a projected attribute
 *     (the status) changes. Four shards per day keep a busy day under one partition's write rate.
 *     Runs written before the index existed lack startDay: `npm run backfill:search-keys`.
 *   - byTaskType (GSI) pk taskType, sk scheduledTime (NUMBER); KEYS_ONLY. Only task rows carry
 *     taskType. Four shards per type (TYPE_SHARDS, by a hash of the task id) keep a busy type under
 *     one index partition's ~1,000 writes/s. Task search by type = Query on each shard and on the
 *     bare type (rows from before the shards), then BatchGet the rows and keep those of the type.
 *     Both keys never change after the row is created: one index write per task row, none on its
 *     updates.
 *   - wakeups  (GSI) pk wakeShard, sk wakeAt (NUMBER); KEYS_ONLY; sparse. dueWakeups = one Query
 *     per shard (wakeShard = "Wn" AND wakeAt <= now, ascending), merged. Eight shards keyed by a
 *     hash of the workflow id spread the writes (an index partition takes ~1,000 writes/s), and
 *     the index is written only when wakeAt changes. A run of worker tasks writes it four times:
 *     its put at create (a new run is due at once, so a start whose decide request was lost is
 *     swept), one move (delete + put) when its first decide replaces that with the first task's
 *     deadline (later decides keep a stored wake-up that is ahead and no later than needed:
 *     lifecycle.ts computeWakeAt), and its delete when the run ends.
 *   - a run's rows: Query its home (begins_with sk "T#"), keeping the rows whose body names the
 *     run (two ids share a home with a chance of 2^-60), and its own partition when the home holds
 *     none (a run from before homes); removing a run reads both. A task's logs: Query pk.
 *
 *   Reads are consistent except where the caller says a stale answer is safe (ports.ts ReadOptions
 *   `fresh: false`: ConsistentRead false, half the read units), each read fresh again before its
 *   answer is acted on where that could go wrong:
 *   - a poll's claim (GetItem of the row): a row missing, not SCHEDULED or superseded is read again
 *     consistently before the entry is dropped; a stale SCHEDULED one only fails the conditional claim;
 *   - a worker's update (GetItem of the row): kept only when IN_PROGRESS (the write is conditional
 *     on its rev; a failure retries consistently); missing, SCHEDULED or over is read again first;
 *   - a decide asked for by named rows (BatchGetItem of its open rows, first attempt only): a row
 *     missing, older than the rev the run item holds of it, or named but without news (not over,
 *     or over and executed) is read again consistently; plain requests and retries read consistently.
 *   The run item itself is always read consistently: a decide from a stale one would do the work of
 *   the decide before it (rows created, entries pushed) before its commit failed.
 *   Per SIMPLE task (bench/lib/store-meter.ts, no replication lag modelled): about 3.9 read units
 *   with SDK workers, of which the queue peeks are 0.5 (most polls are answered from the entries
 *   an earlier poll of the process read: lib/tasks/hinted-queue.ts), and about 9.0 write units
 *   (index writes included; docs/performance.md has the breakdown).
 *
 * queues (worker task queues and poll data; adapter: queue.ts):
 *   queue entry  pk = "Q#<shard>#<queueName>"   sk = readyKey   shard = FNV-1a(taskId) mod 4
 *                readyKey = "<99 - priority, 2 digits>#<visibleAt, 13 digits>#<taskId>"
 *                queueName, taskId, workflowId, priority (N), visibleAt (N)
 *   poll data    pk = "P#<queueName>"   sk = "W#<workerId>", or "-" without a worker id
 *                queueName, domain?, workerId?, lastPollTime (N)
 *   An entry is keyed by its order: ascending sk is "highest priority, then soonest visible".
 *   Pushing the same entry again rewrites it; a task pushed with another priority or visibility gets
 *   a second entry, so the engine removes the previous one by its key (the task row keeps the
 *   visibleAt of its last push) and a claim drops an entry the row no longer names. An entry costs
 *   one write to put and one to delete, and no index write.
 *   A queue is spread over QUEUE_SHARDS (4) partition keys, chosen by a hash of the task id, so
 *   one hot task type is four partitions (~4,000 write units/s, ~2,000 tasks/s) rather than one.
 *   - peek = one eventually consistent Query per shard on the table (ascending sk) with a filter
 *     visibleAt <= now, merged by sk: priority order is exact across shards, and every poll reads
 *     every shard (half a read unit per empty shard). A peek is a hint: an entry pushed moments
 *     ago may wait for the next look, one removed moments ago may be seen again and is dropped by
 *     the claim that reads its row, as a concurrent poller's would be.
 *   - ready (LSI) sk readyKey; ALL. RETIRED: entries used to be keyed by task id (sk = taskId) and
 *     ordered by this index. New entries carry no `readyKey`, so the index (sparse) stays empty
 *     once the old entries drain. It stays declared because removing an LSI replaces the table
 *     (every queued task lost). Upgrading needs no migration: old entries live in the same
 *     partitions, a peek reads them too (merged by their readyKey, though a shard's Query meets
 *     them in task-id order, so they may be served late) and removes them by their task id.
 *     An LSI caps one shard (one pk) at 10 GB, ~50 million entries.
 *   - size = Query COUNT per shard (a superseded entry not yet dropped counts too); sizes and poll
 *     data without a queue name = Scan (admin/UI only).
 *
 * Every table names its TTL attribute `ttl` (epoch seconds). DynamoDB deletes expired items lazily
 * (up to 48 h) and dynalite never does, so readers that care filter `ttl < now` themselves.
 */

/** DynamoDB key attribute types; keys default to strings. */
export type KeyAttributeType = 'S' | 'N';

/** What an index copies from the table item; ALL when absent. */
export interface IndexProjection {
  type: 'ALL' | 'KEYS_ONLY' | 'INCLUDE';
  /** Non-key attributes copied, INCLUDE only. */
  attributes?: string[];
}

/** A global secondary index (always with a string partition key). */
export interface GlobalIndexSpec {
  name: string;
  partitionKey: string;
  sortKey: string;
  /** 'S' when absent. */
  sortKeyType?: KeyAttributeType;
  /** ALL when absent. */
  projection?: IndexProjection;
}

/** A local secondary index: the table's partition key with another sort key (created with the table). */
export interface LocalIndexSpec {
  name: string;
  sortKey: string;
  /** 'S' when absent. */
  sortKeyType?: KeyAttributeType;
  /** ALL when absent. */
  projection?: IndexProjection;
}

export interface TableSpec {
  /**
   * Logical name, lower-case letters and digits: the physical name comes from the property
   * `service.dynamodb.tables.<id>` (tablePropertyName) or the table prefix + id.
   */
  id: string;
  /** Table keys are strings. */
  partitionKey: string;
  sortKey: string;
  /** Global secondary indexes. */
  indexes: GlobalIndexSpec[];
  /** Local secondary indexes; they can only be created together with the table. */
  localIndexes?: LocalIndexSpec[];
  ttlAttribute: string;
}

export const TTL_ATTRIBUTE = 'ttl';

/** Definitions of workflows and tasks (metadata capability). */
export const DEFINITIONS_TABLE: TableSpec = {
  id: 'definitions',
  partitionKey: 'pk',
  sortKey: 'sk',
  indexes: [{ name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' }],
  ttlAttribute: TTL_ATTRIBUTE,
};

/** Runs, their task rows and task logs (workflows capability; the engine writes it). */
export const EXECUTIONS_TABLE: TableSpec = {
  id: 'executions',
  partitionKey: 'pk',
  sortKey: 'sk',
  indexes: [
    { name: 'byTask', partitionKey: 'taskId', sortKey: 'sk', projection: { type: 'KEYS_ONLY' } },
    {
      name: 'byName',
      partitionKey: 'workflowName',
      sortKey: 'createTime',
      sortKeyType: 'N',
      projection: { type: 'INCLUDE', attributes: ['status', 'workflowVersion', 'correlationId'] },
    },
    {
      name: 'byCorrelation',
      partitionKey: 'correlationKey',
      sortKey: 'createTime',
      sortKeyType: 'N',
      projection: { type: 'KEYS_ONLY' },
    },
    {
      name: 'byStartDay',
      partitionKey: 'startDay',
      sortKey: 'createTime',
      sortKeyType: 'N',
      projection: {
        type: 'INCLUDE',
        attributes: ['workflowName', 'status', 'workflowVersion', 'correlationId'],
      },
    },
    {
      name: 'byTaskType',
      partitionKey: 'taskType',
      sortKey: 'scheduledTime',
      sortKeyType: 'N',
      projection: { type: 'KEYS_ONLY' },
    },
    {
      name: 'wakeups',
      partitionKey: 'wakeShard',
      sortKey: 'wakeAt',
      sortKeyType: 'N',
      projection: { type: 'KEYS_ONLY' },
    },
  ],
  ttlAttribute: TTL_ATTRIBUTE,
};

/** Worker task queues and poll data (tasks capability). */
export const QUEUES_TABLE: TableSpec = {
  id: 'queues',
  partitionKey: 'pk',
  sortKey: 'sk',
  indexes: [],
  // Retired (see above): empty once entries written before the order became the sort key drain.
  // Kept, because removing an LSI makes CloudFormation replace the table.
  localIndexes: [{ name: 'ready', sortKey: 'readyKey', projection: { type: 'ALL' } }],
  ttlAttribute: TTL_ATTRIBUTE,
};

/** Physical table names by table id. */
export type TableNames = Readonly<Record<string, string>>;

/** The property naming one table's physical name; the CDK stack sets it, the hosts read it. */
export const tablePropertyName = (spec: TableSpec): `service.dynamodb.tables.${string}` =>
  `service.dynamodb.tables.${spec.id}`;

/** The physical name of a table; a table the host was not told about is a wiring bug. */
export function tableName(names: TableNames, spec: TableSpec): string {
  const name = names[spec.id];
  if (name === undefined) throw new Error(`No table name for '${spec.id}'`);
  return name;
}

/** The projection of an index, with the default made explicit. */
export const projectionOf = (index: { projection?: IndexProjection }): IndexProjection =>
  index.projection ?? { type: 'ALL' };

/** The type of every key attribute of a table and its indexes; a name used with two types is a bug. */
export function keyAttributeTypes(spec: TableSpec): Map<string, KeyAttributeType> {
  const types = new Map<string, KeyAttributeType>();
  const add = (name: string, type: KeyAttributeType = 'S') => {
    const known = types.get(name);
    if (known !== undefined && known !== type) {
      throw new Error(`Table ${spec.id}: key attribute ${name} is declared both ${known} and ${type}`);
    }
    types.set(name, type);
  };
  add(spec.partitionKey);
  add(spec.sortKey);
  for (const index of spec.indexes) {
    add(index.partitionKey);
    add(index.sortKey, index.sortKeyType);
  }
  for (const index of spec.localIndexes ?? []) add(index.sortKey, index.sortKeyType);
  return types;
}
