/**
 * The stores under the meter: each port method does what the memory store does and records what
 * the DynamoDB adapter would send for it (bench/lib/store-meter.ts explains the units).
 */
import type { TaskDef, WorkflowDef } from '../../lib/model/definitions.ts';
import type { TaskRecord, WorkflowRecord } from '../../lib/model/execution.ts';
import { taskItem, taskShapeOf, workflowItem } from '../../lib/store/dynamodb/execution-items.ts';
import { QUEUE_SHARDS, queueItem, readyKey } from '../../lib/store/dynamodb/queue.ts';
import type {
  ExecutionStore,
  PollData,
  PollDataStore,
  QueueEntry,
  TaskDefStore,
  TaskExecLog,
  TaskQueue,
  WorkflowDefStore,
} from '../../lib/store/ports.ts';
import type { StoreMeter } from './store-meter.ts';

/** A snapshot's name is a sha256 in base64url: 43 characters. */
const SNAPSHOT_HASH = 'x'.repeat(43);

export function meteredExecutions(m: StoreMeter, inner: ExecutionStore): ExecutionStore {
  const sizes = m.sizes;
  // Items as the DynamoDB adapter writes them: the definition and the workflow task named by the
  // hash of their snapshot (lib/store/dynamodb/snapshots.ts), stored once per process and shape.
  const wfSize = (r: WorkflowRecord) => (sizes ? itemBytes(workflowItem(r, SNAPSHOT_HASH)) : 0);
  const taskSize = (t: TaskRecord) =>
    sizes ? itemBytes(taskItem(t, taskShapeOf(t) ? SNAPSHOT_HASH : undefined)) : 0;
  return {
    createWorkflow: async (record) => {
      const t = m.call('executions.createWorkflow');
      m.written(t, 1, () => [wfSize(record)]);
      await m.conditional(t, () => inner.createWorkflow(record));
      m.runCreated(t, record);
    },
    getWorkflow: async (workflowId) => {
      const t = m.call('executions.getWorkflow');
      const found = await inner.getWorkflow(workflowId);
      m.readItems(t, 1, () => (found ? [wfSize(found)] : []));
      return found;
    },
    commitWorkflow: async (record, expectedRev) => {
      const t = m.call('executions.commitWorkflow');
      m.written(t, 1, () => [wfSize(record)]);
      await m.conditional(t, () => inner.commitWorkflow(record, expectedRev));
      m.runCommitted(t, record);
    },
    removeWorkflow: async (workflowId) => {
      const t = m.call('executions.removeWorkflow');
      // A Query of the run's items, then every task row and the record deleted.
      t.reads += 1;
      m.written(t, 1 + m.taskRowCount(workflowId), () => []);
      await inner.removeWorkflow(workflowId);
      m.runRemoved(t, workflowId);
    },
    createTasks: async (tasks) => {
      const t = m.call('executions.createTasks');
      m.written(t, tasks.length, () => tasks.map(taskSize));
      const stored = await inner.createTasks(tasks);
      for (const task of tasks) {
        if (m.taskRowCreated(t, task.workflowInstanceId, task.taskId)) continue;
        // The adapter's conditional put fails and it reads the stored row instead.
        t.conflicts++;
        t.reads++;
      }
      return stored;
    },
    updateTask: async (task, expectedRev) => {
      const t = m.call('executions.updateTask');
      m.written(t, 1, () => [taskSize(task)]);
      await m.conditional(t, () => inner.updateTask(task, expectedRev));
    },
    getTask: async (workflowId, taskId) => {
      const t = m.call('executions.getTask');
      const found = await inner.getTask(workflowId, taskId);
      m.readItems(t, 1, () => (found ? [taskSize(found)] : []));
      return found;
    },
    getTasks: async (workflowId, taskIds) => {
      const t = m.call('executions.getTasks');
      const found = await inner.getTasks(workflowId, taskIds);
      m.readItems(t, new Set(taskIds).size, () => found.map(taskSize));
      return found;
    },
    findTask: async (taskId) => {
      const t = m.call('executions.findTask');
      const found = await inner.findTask(taskId);
      // A byTask query, then a consistent GetItem of the row.
      m.query(t, () => 100);
      m.readItems(t, found ? 1 : 0, () => (found ? [taskSize(found)] : []));
      return found;
    },
    listTasks: async (workflowId) => {
      const t = m.call('executions.listTasks');
      const found = await inner.listTasks(workflowId);
      m.query(t, () => found.reduce((sum, task) => sum + taskSize(task), 0));
      return found;
    },
    deleteTasks: async (workflowId, taskIds) => {
      const t = m.call('executions.deleteTasks');
      const unique = [...new Set(taskIds)];
      m.written(t, unique.length, () => []);
      await inner.deleteTasks(workflowId, taskIds);
      for (const id of unique) m.taskRowDeleted(t, workflowId, id);
    },
    findWorkflows: async (query) => {
      const t = m.call('executions.findWorkflows');
      const found = await inner.findWorkflows(query);
      m.query(t, () => found.length * 100);
      m.readItems(t, found.length, () => found.map(wfSize));
      return found;
    },
    // Search reads are not on the engine's path; passed through unmetered.
    runIndex: (read) => inner.runIndex(read),
    getWorkflowsById: (ids) => inner.getWorkflowsById(ids),
    scanTasks: (ids) => inner.scanTasks(ids),
    tasksOfTypes: (types) => inner.tasksOfTypes(types),
    unfinishedWorkflows: async (limit) => {
      const t = m.call('executions.unfinishedWorkflows');
      const found = await inner.unfinishedWorkflows(limit);
      m.query(t, () => found.length * 60);
      return found;
    },
    dueWakeups: async (now, limit) => {
      const t = m.call('executions.dueWakeups');
      const found = await inner.dueWakeups(now, limit);
      m.query(t, () => found.length * 60);
      return found;
    },
    appendLogs: async (logs: TaskExecLog[]) => {
      const t = m.call('executions.appendLogs');
      m.written(t, logs.length, () => logs.map((l) => Buffer.byteLength(JSON.stringify(l)) + 60));
      await inner.appendLogs(logs);
    },
    logs: async (taskId) => {
      const t = m.call('executions.logs');
      const found = await inner.logs(taskId);
      m.query(t, () => Buffer.byteLength(JSON.stringify(found)));
      return found;
    },
    claimIdempotencyKey: async (claim) => {
      const t = m.call('executions.claimIdempotencyKey');
      // A small conditional put; a lost claim reads the holder back.
      m.written(t, 1, () => [120]);
      const held = await inner.claimIdempotencyKey(claim);
      if (held !== undefined) {
        t.conflicts++;
        t.reads++;
      }
      return held;
    },
  };
}

export function meteredQueue(m: StoreMeter, inner: TaskQueue): TaskQueue {
  return {
    push: async (entries) => {
      const t = m.call('queue.push');
      const latest = new Map<string, QueueEntry>();
      for (const entry of entries) latest.set(`${entry.queueName}\u0000${entry.taskId}`, entry);
      m.written(t, latest.size, () => [...latest.values()].map(queueEntryBytes));
      m.countQueuePushes(latest.size);
      await inner.push(entries);
      for (const [key, entry] of latest) m.queueEntryPut(t, key, readyKey(entry));
    },
    peek: async (queueName, count, now) => {
      const t = m.call('queue.peek');
      const found = await inner.peek(queueName, count, now);
      // One Query per shard key of the queue (lib/store/dynamodb/queue.ts); the entries found
      // are counted against the first, the others read at least one unit each.
      m.query(t, () => found.reduce((sum, e) => sum + queueEntryBytes(e), 0));
      for (let shard = 1; shard < QUEUE_SHARDS; shard++) m.query(t, () => 0);
      return found;
    },
    remove: async (entry) => {
      const t = m.call('queue.remove');
      // DeleteItem bills a write whether or not the item exists.
      m.written(t, 1, () => []);
      await inner.remove(entry);
      m.queueEntryDeleted(t, `${entry.queueName}\u0000${entry.taskId}`);
    },
    size: async (queueName) => {
      const t = m.call('queue.size');
      t.reads += QUEUE_SHARDS;
      t.readUnits += QUEUE_SHARDS;
      return inner.size(queueName);
    },
    sizes: async () => {
      const t = m.call('queue.sizes');
      t.reads += 1;
      t.readUnits += 1;
      return inner.sizes();
    },
  };
}

export function meteredPollData(m: StoreMeter, inner: PollDataStore): PollDataStore {
  return {
    record: async (data: PollData) => {
      const t = m.call('pollData.record');
      m.written(t, 1, () => [Buffer.byteLength(JSON.stringify(data)) + 40]);
      await inner.record(data);
    },
    list: async (queueName) => {
      const t = m.call('pollData.list');
      t.reads += 1;
      t.readUnits += 1;
      return inner.list(queueName);
    },
  };
}

export function meteredWorkflowDefs(m: StoreMeter, inner: WorkflowDefStore): WorkflowDefStore {
  const size = (def: WorkflowDef) => Buffer.byteLength(JSON.stringify(def)) + 60;
  return {
    put: async (def, options) => {
      const t = m.call('workflowDefs.put');
      m.written(t, 1, () => [size(def)]);
      await m.conditional(t, () => inner.put(def, options));
      m.index(t, 'definitions.gsi1', 1);
    },
    get: async (name, version) => {
      const t = m.call('workflowDefs.get');
      const found = await inner.get(name, version);
      // The latest version is a Query (Limit 1); a given version a GetItem: one read either way.
      m.readItems(t, 1, () => (found ? [size(found)] : []));
      return found;
    },
    versions: async (name) => {
      const t = m.call('workflowDefs.versions');
      const found = await inner.versions(name);
      m.query(t, () => found.reduce((sum, d) => sum + size(d), 0));
      return found;
    },
    list: async () => {
      const t = m.call('workflowDefs.list');
      const found = await inner.list();
      m.query(t, () => found.reduce((sum, d) => sum + size(d), 0));
      return found;
    },
    delete: async (name, version) => {
      const t = m.call('workflowDefs.delete');
      m.written(t, 1, () => []);
      const deleted = await inner.delete(name, version);
      if (deleted) m.index(t, 'definitions.gsi1', 1);
      return deleted;
    },
  };
}

export function meteredTaskDefs(m: StoreMeter, inner: TaskDefStore): TaskDefStore {
  const size = (def: TaskDef) => Buffer.byteLength(JSON.stringify(def)) + 60;
  return {
    put: async (def) => {
      const t = m.call('taskDefs.put');
      m.written(t, 1, () => [size(def)]);
      await inner.put(def);
      m.index(t, 'definitions.gsi1', 1);
    },
    get: async (name) => {
      const t = m.call('taskDefs.get');
      const found = await inner.get(name);
      m.readItems(t, 1, () => (found ? [size(found)] : []));
      return found;
    },
    getMany: async (names) => {
      const t = m.call('taskDefs.getMany');
      const found = await inner.getMany(names);
      m.readItems(t, new Set(names).size, () => [...found.values()].map(size));
      return found;
    },
    list: async () => {
      const t = m.call('taskDefs.list');
      const found = await inner.list();
      m.query(t, () => found.reduce((sum, d) => sum + size(d), 0));
      return found;
    },
    delete: async (name) => {
      const t = m.call('taskDefs.delete');
      m.written(t, 1, () => []);
      const deleted = await inner.delete(name);
      if (deleted) m.index(t, 'definitions.gsi1', 1);
      return deleted;
    },
  };
}

// ---- item sizes (DynamoDB's rule: attribute name bytes + value bytes) ----

function itemBytes(item: Record<string, unknown>): number {
  let size = 0;
  for (const [name, value] of Object.entries(item)) {
    if (value === undefined) continue;
    size += Buffer.byteLength(name);
    if (typeof value === 'string') size += Buffer.byteLength(value);
    else if (typeof value === 'number')
      size += Math.ceil(String(Math.abs(value)).replace('.', '').length / 2) + 1;
    // A binary attribute (a deflated run record body) counts its bytes.
    else if (value instanceof Uint8Array) size += value.byteLength;
    else size += Buffer.byteLength(JSON.stringify(value));
  }
  return size;
}

/** The size of an entry's queues-table item, built by the adapter's own item builder. */
const queueEntryBytes = (entry: QueueEntry) => itemBytes(queueItem(entry));
