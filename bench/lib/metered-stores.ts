/**
 * The stores under the meter: each port method does what the memory store does and records what
 * the DynamoDB adapter would send for it (bench/lib/store-meter.ts explains the units).
 */
import type { TaskDef, WorkflowDef } from '../../lib/model/definitions.ts';
import type { TaskRecord, WorkflowRecord } from '../../lib/model/execution.ts';
import { isHomedTaskOf, mayBeHomed } from '../../lib/model/ids.ts';
import { decorate } from '../../lib/store/decorate.ts';
import {
  taskDefItem,
  taskKey as taskDefKey,
  wfKey,
  workflowDefItem,
} from '../../lib/store/dynamodb/definitions.ts';
import {
  idempotencyItem,
  logItem,
  taskItem,
  taskKey,
  taskShapeOf,
  WORKFLOW_SK,
  workflowItem,
} from '../../lib/store/dynamodb/execution-items.ts';
import { QUEUE_SHARDS, queueItem } from '../../lib/store/dynamodb/queue.ts';
import { TTL_ATTRIBUTE } from '../../lib/store/dynamodb/tables.ts';
import type {
  ExecutionStore,
  PollData,
  PollDataStore,
  QueueEntry,
  Stores,
  TaskDefStore,
  TaskExecLog,
  TaskQueue,
  WorkflowDefStore,
} from '../../lib/store/ports.ts';
import type { StoreMeter } from './store-meter.ts';
import { type Item, itemBytes } from './table-model.ts';

/** A snapshot's name is a sha256 in base64url: 43 characters. */
const SNAPSHOT_HASH = 'x'.repeat(43);

export function meteredExecutions(m: StoreMeter, inner: ExecutionStore): ExecutionStore {
  // Items as the DynamoDB adapter writes them: the definition and the workflow task named by the
  // hash of their snapshot (lib/store/dynamodb/snapshots.ts), stored once per process and shape.
  // A run's items are grouped by its id (the partition key), each named by its sort key.
  const runItem = (r: WorkflowRecord) => m.item(() => workflowItem(r, SNAPSHOT_HASH));
  const rowItem = (t: TaskRecord) => m.item(() => taskItem(t, taskShapeOf(t) ? SNAPSHOT_HASH : undefined));
  const rowSk = (taskId: string) => taskKey('', taskId).sk;
  const wfSize = (r: WorkflowRecord) => (m.sizes ? itemBytes(runItem(r)) : 0);
  const taskSize = (t: TaskRecord) => (m.sizes ? itemBytes(rowItem(t)) : 0);
  // Search reads are not on the engine's path; passed through unmetered.
  return decorate<ExecutionStore>(inner, {
    createWorkflow: async (record) => {
      const t = m.call('executions.createWorkflow');
      const item = runItem(record);
      m.written(t, 1, () => [itemBytes(item)]);
      await m.conditional(t, () => inner.createWorkflow(record));
      m.store(t, 'executions', record.workflowId, WORKFLOW_SK, item);
    },
    getWorkflow: async (workflowId) => {
      const t = m.call('executions.getWorkflow');
      const found = await inner.getWorkflow(workflowId);
      m.readItems(t, 1, () => (found ? [wfSize(found)] : []));
      return found;
    },
    commitWorkflow: async (record, expectedRev) => {
      const t = m.call('executions.commitWorkflow');
      const item = runItem(record);
      m.written(t, 1, () => [itemBytes(item)]);
      await m.conditional(t, () => inner.commitWorkflow(record, expectedRev));
      m.store(t, 'executions', record.workflowId, WORKFLOW_SK, item);
    },
    removeWorkflow: async (workflowId) => {
      const t = m.call('executions.removeWorkflow');
      // A Query of the run's items, then every task row and the record deleted.
      t.reads += 1;
      const ids = m.storedIds('executions', workflowId);
      m.deleted(t, ids.length, () => m.storedBytes('executions', workflowId, ids));
      await inner.removeWorkflow(workflowId);
      for (const id of ids) m.store(t, 'executions', workflowId, id, undefined);
    },
    createTasks: async (tasks) => {
      const t = m.call('executions.createTasks');
      const items = tasks.map(rowItem);
      m.written(t, tasks.length, () => items.map(itemBytes));
      const stored = await inner.createTasks(tasks);
      tasks.forEach((task, i) => {
        const sk = rowSk(task.taskId);
        if (m.stored('executions', task.workflowInstanceId, sk) === undefined) {
          m.store(t, 'executions', task.workflowInstanceId, sk, items[i]);
          return;
        }
        // The adapter's conditional put fails and it reads the stored row instead.
        t.conflicts++;
        t.reads++;
      });
      return stored;
    },
    updateTask: async (task, expectedRev) => {
      const t = m.call('executions.updateTask');
      const item = rowItem(task);
      m.written(t, 1, () => [itemBytes(item)]);
      await m.conditional(t, () => inner.updateTask(task, expectedRev));
      m.store(t, 'executions', task.workflowInstanceId, rowSk(task.taskId), item);
    },
    getTask: async (workflowId, taskId, options) => {
      const t = m.call('executions.getTask');
      const found = await inner.getTask(workflowId, taskId, options);
      // `fresh: false`: an eventually consistent GetItem.
      m.readItems(t, 1, () => (found ? [taskSize(found)] : []), options?.fresh !== false);
      return found;
    },
    getTasks: async (workflowId, taskIds, options) => {
      const t = m.call('executions.getTasks');
      const found = await inner.getTasks(workflowId, taskIds, options);
      // A BatchGetItem; `fresh: false` eventually consistent.
      m.readItems(t, new Set(taskIds).size, () => found.map(taskSize), options?.fresh !== false);
      return found;
    },
    findTask: async (taskId) => {
      const t = m.call('executions.findTask');
      const found = await inner.findTask(taskId);
      // A consistent GetItem under the home a UUID names: the row of a homed run. Otherwise (a
      // run from before homes, or no such task) a byTask query, and a GetItem of the row it names.
      const homed = found !== undefined && isHomedTaskOf(found.workflowInstanceId, taskId);
      if (mayBeHomed(taskId)) m.readItems(t, 1, () => (homed ? [taskSize(found)] : []));
      if (!homed) {
        m.query(t, () => 100);
        m.readItems(t, found ? 1 : 0, () => (found ? [taskSize(found)] : []));
      }
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
      const sks = [...new Set(taskIds)].map(rowSk);
      m.deleted(t, sks.length, () => m.storedBytes('executions', workflowId, sks));
      await inner.deleteTasks(workflowId, taskIds);
      for (const sk of sks) m.store(t, 'executions', workflowId, sk, undefined);
    },
    findWorkflows: async (query) => {
      const t = m.call('executions.findWorkflows');
      const found = await inner.findWorkflows(query);
      m.query(t, () => found.length * 100);
      m.readItems(t, found.length, () => found.map(wfSize));
      return found;
    },
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
      // Logs are never replaced: built for their size and their index writes, not kept.
      const items = logs.map((log, i) => m.item(() => logItem(log, i, 'r'.repeat(8))));
      m.written(t, logs.length, () => items.map(itemBytes));
      await inner.appendLogs(logs);
      for (const item of items) m.added(t, 'executions', item);
    },
    logs: async (taskId) => {
      const t = m.call('executions.logs');
      const found = await inner.logs(taskId);
      m.query(t, () => Buffer.byteLength(JSON.stringify(found)));
      return found;
    },
    holdRun: async (workflowId, until) => {
      const t = m.call('executions.holdRun');
      // An update of the record's TTL alone, billed by the record's size (one unit when it is gone).
      const item = m.stored('executions', workflowId, WORKFLOW_SK);
      m.written(t, 1, () => (item ? [itemBytes(item)] : []));
      return inner.holdRun(workflowId, until);
    },
    claimIdempotencyKey: async (claim) => {
      const t = m.call('executions.claimIdempotencyKey');
      // A small conditional put; a lost claim reads the holder back.
      const item = m.item(() => idempotencyItem(claim));
      m.written(t, 1, () => [itemBytes(item)]);
      const held = await inner.claimIdempotencyKey(claim);
      if (held !== undefined) {
        t.conflicts++;
        t.reads++;
      } else m.store(t, 'executions', `IDEM\u0000${claim.workflowName}`, claim.key, item);
      return held;
    },
  });
}

export function meteredQueue(m: StoreMeter, inner: TaskQueue): TaskQueue {
  // Entries are grouped by queue and named by their table sort key (lib/store/dynamodb/queue.ts:
  // the entry's order), so a task pushed again under another key is a second item until its old
  // entry is removed, as in the table.
  const group = (queueName: string) => `Q\u0000${queueName}`;
  const keyOf = (entry: QueueEntry) => String(queueItem(entry).sk);
  return {
    push: async (entries) => {
      const t = m.call('queue.push');
      const latest = new Map<string, QueueEntry>();
      for (const entry of entries) latest.set(`${entry.queueName}\u0000${entry.taskId}`, entry);
      const items = [...latest.values()].map((entry) => ({ entry, item: m.item(() => queueItem(entry)) }));
      m.written(t, items.length, () => items.map(({ item }) => itemBytes(item)));
      m.countQueuePushes(items.length);
      await inner.push(entries);
      for (const { entry, item } of items) m.store(t, 'queues', group(entry.queueName), keyOf(entry), item);
    },
    peek: async (queueName, count, now) => {
      const t = m.call('queue.peek');
      const found = await inner.peek(queueName, count, now);
      // One eventually consistent Query per shard key of the queue (lib/store/dynamodb/queue.ts);
      // the entries found are counted against the first, the others read at least half a unit each.
      m.query(t, () => found.reduce((sum, e) => sum + itemBytes(queueItem(e)), 0), false);
      for (let shard = 1; shard < QUEUE_SHARDS; shard++) m.query(t, () => 0, false);
      return found;
    },
    remove: async (entry) => {
      const t = m.call('queue.remove');
      // DeleteItem bills a write whether or not the item exists.
      const id = keyOf(entry);
      m.deleted(t, 1, () => m.storedBytes('queues', group(entry.queueName), [id]));
      await inner.remove(entry);
      m.store(t, 'queues', group(entry.queueName), id, undefined);
    },
    removeAll: async (entries) => {
      if (entries.length === 0) return;
      const t = m.call('queue.removeAll');
      // BatchWriteItem: a write per entry, present or not, 25 to a call.
      const ids = entries.map((entry) => ({ group: group(entry.queueName), id: keyOf(entry) }));
      m.deleted(t, ids.length, () => ids.flatMap(({ group: g, id }) => m.storedBytes('queues', g, [id])));
      await inner.removeAll(entries);
      for (const { group: g, id } of ids) m.store(t, 'queues', g, id, undefined);
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

/**
 * A poll data item as DynamoPollDataStore.record (lib/store/dynamodb/queue.ts) writes it; copied
 * here because that adapter builds it inline.
 */
const pollDataItem = (data: PollData): Item => ({
  pk: `P#${data.queueName}`,
  sk: data.workerId ? `W#${data.workerId}` : '-',
  queueName: data.queueName,
  domain: data.domain,
  workerId: data.workerId,
  lastPollTime: data.lastPollTime,
  ...(data.expiresAt ? { expiresAt: data.expiresAt, [TTL_ATTRIBUTE]: Math.ceil(data.expiresAt / 1000) } : {}),
});

export function meteredPollData(m: StoreMeter, inner: PollDataStore): PollDataStore {
  return {
    record: async (data: PollData) => {
      const t = m.call('pollData.record');
      const item = m.item(() => pollDataItem(data));
      m.written(t, 1, () => [itemBytes(item)]);
      await inner.record(data);
      const { pk, sk } = pollDataItem(data);
      m.store(t, 'queues', String(pk), String(sk), item);
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
  const size = (def: WorkflowDef) => itemBytes(workflowDefItem(def));
  return {
    put: async (def, options) => {
      const t = m.call('workflowDefs.put');
      const item = m.item(() => workflowDefItem(def));
      m.written(t, 1, () => [itemBytes(item)]);
      await m.conditional(t, () => inner.put(def, options));
      const { pk, sk } = wfKey(def.name, def.version);
      m.store(t, 'definitions', pk, sk, item);
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
      const { pk, sk } = wfKey(name, version);
      m.deleted(t, 1, () => m.storedBytes('definitions', pk, [sk]));
      const deleted = await inner.delete(name, version);
      m.store(t, 'definitions', pk, sk, undefined);
      return deleted;
    },
    // Tags are passed through unmetered: no benchmark reads or changes them.
    tags: (name) => inner.tags(name),
    allTags: () => inner.allTags(),
    changeTags: (name, change) => inner.changeTags(name, change),
  };
}

export function meteredTaskDefs(m: StoreMeter, inner: TaskDefStore): TaskDefStore {
  const size = (def: TaskDef) => itemBytes(taskDefItem(def));
  return {
    put: async (def) => {
      const t = m.call('taskDefs.put');
      const item = m.item(() => taskDefItem(def));
      m.written(t, 1, () => [itemBytes(item)]);
      await inner.put(def);
      const { pk, sk } = taskDefKey(def.name);
      m.store(t, 'definitions', pk, sk, item);
    },
    get: async (name) => {
      const t = m.call('taskDefs.get');
      const found = await inner.get(name);
      m.readItems(t, 1, () => (found ? [size(found)] : []));
      return found;
    },
    getMany: async (names, options) => {
      const t = m.call('taskDefs.getMany');
      const found = await inner.getMany(names, options);
      const fresh = options?.fresh !== false;
      const unique = new Set(names);
      // A BatchGetItem; `fresh: false` reads eventually consistent, then the names not found again
      // consistently (lib/store/dynamodb/definitions.ts).
      m.readItems(t, unique.size, () => [...found.values()].map(size), fresh);
      const missing = [...unique].filter((name) => !found.has(name)).length;
      if (!fresh && missing > 0) m.readItems(t, missing, () => []);
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
      const { pk, sk } = taskDefKey(name);
      m.deleted(t, 1, () => m.storedBytes('definitions', pk, [sk]));
      const deleted = await inner.delete(name);
      m.store(t, 'definitions', pk, sk, undefined);
      return deleted;
    },
    // Tags are passed through unmetered: no benchmark reads or changes them.
    tags: (name) => inner.tags(name),
    allTags: () => inner.allTags(),
    changeTags: (name, change) => inner.changeTags(name, change),
  };
}

/** The engine's ports metered; any other capability's stores pass through as they are. */
export function meteredStores<S extends Stores>(meter: StoreMeter, stores: S): S {
  return {
    ...stores,
    workflowDefs: meteredWorkflowDefs(meter, stores.workflowDefs),
    taskDefs: meteredTaskDefs(meter, stores.taskDefs),
    executions: meteredExecutions(meter, stores.executions),
    queue: meteredQueue(meter, stores.queue),
    pollData: meteredPollData(meter, stores.pollData),
    close: () => stores.close(),
  };
}
