/**
 * In-memory execution store: runs, task rows and logs. Nobody can change what is stored, as with a
 * database: a write keeps the record or row it is handed (a write hands it over: ports.ts RunStore)
 * and freezes it whole, so a caller that changed it afterwards would fail loudly; a read copies the
 * kept object's own fields and shares every part below them (payloads, lists, workflow tasks, the
 * definition snapshot), which are frozen. So nothing is copied by a write, and a read copies one
 * level of a run and of each of its tasks. (Writes used to copy what they were given; freezing a
 * run of five tasks costs about a quarter of that copy.)
 */

import { ConflictError, VersionConflictError } from '../../model/errors.ts';
import type { TaskRecord, WorkflowRecord } from '../../model/execution.ts';
import { payloadKeysIn } from '../../payloads/keys.ts';
import { deepFreeze } from '../deep-freeze.ts';
import { addTo, removeFrom } from '../id-index.ts';
import type { ExecutionStore, IdempotencyClaim, RunIndexRead, RunIndexRow, TaskExecLog } from '../ports.ts';
import { matchesQuery, type WorkflowQuery } from '../run-query.ts';
import { byRunOrder } from '../run-rows.ts';
import { isolate } from './isolate.ts';

/** A stored run: the record, frozen, plus the fields the store looks at. */
interface StoredRun {
  record: WorkflowRecord;
  rev: number;
  workflowName: string;
  workflowVersion: number;
  status: WorkflowRecord['status'];
  correlationId?: string;
  createTime: number;
  wakeAt: number;
}

interface StoredTask {
  row: TaskRecord;
  rev: number;
  seq: number;
}

/** What a write keeps of a run: the record it was handed, frozen whole (its definition too). */
function storeRun(r: WorkflowRecord): StoredRun {
  return {
    record: deepFreeze(r),
    rev: r.rev,
    workflowName: r.workflowName,
    workflowVersion: r.workflowVersion,
    status: r.status,
    correlationId: r.correlationId,
    createTime: r.createTime,
    wakeAt: r.wakeAt,
  };
}

const storeTask = (t: TaskRecord): StoredTask => ({ row: deepFreeze(t), rev: t.rev, seq: t.seq });
/**
 * A read's copy of a kept run: its own fields and each task's, in new objects; everything below
 * them is frozen (deepFreeze froze all of it when it was kept), so it is shared.
 */
function run(s: StoredRun): WorkflowRecord {
  return { ...s.record, tasks: s.record.tasks.map((t) => ({ ...t })) };
}
const task = (s: StoredTask): TaskRecord => ({ ...s.row });

export class MemoryExecutionStore implements ExecutionStore {
  private readonly workflows = new Map<string, StoredRun>();
  private readonly tasks = new Map<string, Map<string, StoredTask>>();
  private readonly taskOwner = new Map<string, string>();
  private readonly taskLogs = new Map<string, TaskExecLog[]>();
  /** Idempotency keys (by workflow name and key) to the run each points at. */
  private readonly idempotencyKeys = new Map<string, string>();
  /**
   * Run ids by workflow name and by name + correlation id: the lookups read only the runs that can
   * match, as the DynamoDB indexes do, instead of every run in the store.
   */
  private readonly byName = new Map<string, Set<string>>();
  private readonly byCorrelation = new Map<string, Set<string>>();
  /** Task ids by task type (rows never change type). */
  private readonly byTaskType = new Map<string, Set<string>>();

  async createWorkflow(record: WorkflowRecord): Promise<void> {
    if (this.workflows.has(record.workflowId))
      throw new ConflictError(`Workflow ${record.workflowId} already exists`);
    this.workflows.set(record.workflowId, storeRun(record));
    this.index(record.workflowId, record);
  }

  async getWorkflow(workflowId: string): Promise<WorkflowRecord | undefined> {
    const stored = this.workflows.get(workflowId);
    return stored && run(stored);
  }

  async commitWorkflow(record: WorkflowRecord, expectedRev: number): Promise<void> {
    const current = this.workflows.get(record.workflowId);
    if (!current || current.rev !== expectedRev) {
      throw new VersionConflictError(
        `Workflow ${record.workflowId} changed concurrently (expected rev ${expectedRev})`,
      );
    }
    this.unindex(record.workflowId, current);
    this.workflows.set(record.workflowId, storeRun(record));
    this.index(record.workflowId, record);
  }

  async removeWorkflow(workflowId: string): Promise<void> {
    const current = this.workflows.get(workflowId);
    if (current) this.unindex(workflowId, current);
    this.workflows.delete(workflowId);
    for (const [taskId, stored] of this.tasks.get(workflowId) ?? []) {
      removeFrom(this.byTaskType, stored.row.taskType, taskId);
      this.taskOwner.delete(taskId);
      this.taskLogs.delete(taskId);
    }
    this.tasks.delete(workflowId);
  }

  async payloadReferences(visit: (key: string) => void): Promise<void> {
    for (const stored of this.workflows.values()) payloadKeysIn(JSON.stringify(stored.record)).forEach(visit);
    for (const rows of this.tasks.values()) {
      for (const stored of rows.values()) payloadKeysIn(JSON.stringify(stored.row)).forEach(visit);
    }
  }

  async createTasks(tasks: TaskRecord[]): Promise<TaskRecord[]> {
    return tasks.map((t) => {
      const rows = this.rowsOf(t.workflowInstanceId);
      const existing = rows.get(t.taskId);
      if (existing) return task(existing);
      const stored = storeTask(t);
      rows.set(t.taskId, stored);
      this.taskOwner.set(t.taskId, t.workflowInstanceId);
      addTo(this.byTaskType, t.taskType, t.taskId);
      return task(stored);
    });
  }

  async updateTask(t: TaskRecord, expectedRev: number): Promise<void> {
    const rows = this.rowsOf(t.workflowInstanceId);
    const current = rows.get(t.taskId);
    if (!current || current.rev !== expectedRev) {
      throw new VersionConflictError(`Task ${t.taskId} changed concurrently (expected rev ${expectedRev})`);
    }
    rows.set(t.taskId, storeTask(t));
  }

  async getTask(workflowId: string, taskId: string): Promise<TaskRecord | undefined> {
    const stored = this.tasks.get(workflowId)?.get(taskId);
    return stored && task(stored);
  }

  async getTasks(workflowId: string, taskIds: readonly string[]): Promise<TaskRecord[]> {
    const rows = this.tasks.get(workflowId);
    if (!rows) return [];
    return taskIds.flatMap((id) => {
      const stored = rows.get(id);
      return stored ? [task(stored)] : [];
    });
  }

  async findTask(taskId: string): Promise<TaskRecord | undefined> {
    const owner = this.taskOwner.get(taskId);
    return owner === undefined ? undefined : this.getTask(owner, taskId);
  }

  async listTasks(workflowId: string): Promise<TaskRecord[]> {
    return [...(this.tasks.get(workflowId)?.values() ?? [])]
      .map((s) => s.row)
      .sort(byRunOrder)
      .map((row) => ({ ...row }));
  }

  async deleteTasks(workflowId: string, taskIds: readonly string[]): Promise<void> {
    const rows = this.tasks.get(workflowId);
    for (const id of taskIds) {
      const stored = rows?.get(id);
      if (stored) removeFrom(this.byTaskType, stored.row.taskType, id);
      rows?.delete(id);
      this.taskOwner.delete(id);
      this.taskLogs.delete(id);
    }
  }

  async findWorkflows(query: WorkflowQuery): Promise<WorkflowRecord[]> {
    const out: StoredRun[] = [];
    const ids =
      query.correlationId !== undefined
        ? this.byCorrelation.get(correlationKey(query.name, query.correlationId))
        : this.byName.get(query.name);
    for (const id of ids ?? []) {
      const record = this.workflows.get(id);
      if (record && matchesQuery(record, query)) out.push(record);
    }
    return out.sort((a, b) => a.createTime - b.createTime).map(run);
  }

  async runIndex(read: RunIndexRead): Promise<RunIndexRow[]> {
    const ids = read.names
      ? read.names.flatMap((name) => [...(this.byName.get(name) ?? [])])
      : [...this.workflows.keys()];
    const rows: RunIndexRow[] = [];
    for (const workflowId of ids) {
      const s = this.workflows.get(workflowId);
      if (!s) continue;
      if (read.startFrom !== undefined && s.createTime < read.startFrom) continue;
      if (read.startTo !== undefined && s.createTime > read.startTo) continue;
      rows.push({
        workflowId,
        workflowName: s.workflowName,
        workflowVersion: s.workflowVersion,
        status: s.status,
        correlationId: s.correlationId,
        createTime: s.createTime,
      });
    }
    return rows.sort((a, b) => a.createTime - b.createTime);
  }

  async getWorkflowsById(workflowIds: readonly string[]): Promise<WorkflowRecord[]> {
    return workflowIds.flatMap((id) => {
      const stored = this.workflows.get(id);
      return stored ? [run(stored)] : [];
    });
  }

  async tasksOfTypes(taskTypes: readonly string[]): Promise<TaskRecord[]> {
    return [...new Set(taskTypes)].flatMap((type) =>
      [...(this.byTaskType.get(type) ?? [])].flatMap((taskId) => {
        const owner = this.taskOwner.get(taskId);
        const stored = owner === undefined ? undefined : this.tasks.get(owner)?.get(taskId);
        return stored ? [task(stored)] : [];
      }),
    );
  }

  async scanTasks(workflowIds?: readonly string[]): Promise<TaskRecord[]> {
    const ids = workflowIds ?? [...this.tasks.keys()];
    return ids.flatMap((id) => [...(this.tasks.get(id)?.values() ?? [])].map(task));
  }

  async unfinishedWorkflows(limit: number): Promise<string[]> {
    const out: string[] = [];
    for (const [workflowId, record] of this.workflows) {
      if (out.length >= limit) break;
      if (record.status === 'RUNNING' || record.status === 'PAUSED') out.push(workflowId);
    }
    return out;
  }

  async dueWakeups(now: number, limit: number): Promise<{ workflowId: string; wakeAt: number }[]> {
    const due: { workflowId: string; wakeAt: number }[] = [];
    for (const [workflowId, record] of this.workflows) {
      if (record.wakeAt > 0 && record.wakeAt <= now) due.push({ workflowId, wakeAt: record.wakeAt });
    }
    return due.sort((a, b) => a.wakeAt - b.wakeAt).slice(0, limit);
  }

  async appendLogs(logs: TaskExecLog[]): Promise<void> {
    for (const log of logs) {
      const list = this.taskLogs.get(log.taskId) ?? [];
      list.push(isolate(log));
      this.taskLogs.set(log.taskId, list);
    }
  }

  async logs(taskId: string): Promise<TaskExecLog[]> {
    return isolate(this.taskLogs.get(taskId) ?? []);
  }

  async holdRun(workflowId: string): Promise<boolean> {
    // Nothing here deletes an expired run's record: it is kept as long as any hold.
    return this.workflows.has(workflowId);
  }

  async claimIdempotencyKey(claim: IdempotencyClaim): Promise<string | undefined> {
    // JSON keeps the name and the key apart whatever characters they hold.
    const id = JSON.stringify([claim.workflowName, claim.key]);
    const held = this.idempotencyKeys.get(id);
    if (held !== undefined && held !== claim.replaces) return held;
    this.idempotencyKeys.set(id, claim.workflowId);
    return undefined;
  }

  private index(id: string, record: Indexed): void {
    addTo(this.byName, record.workflowName, id);
    if (record.correlationId !== undefined) {
      addTo(this.byCorrelation, correlationKey(record.workflowName, record.correlationId), id);
    }
  }

  private unindex(id: string, record: Indexed): void {
    removeFrom(this.byName, record.workflowName, id);
    if (record.correlationId !== undefined) {
      removeFrom(this.byCorrelation, correlationKey(record.workflowName, record.correlationId), id);
    }
  }

  private rowsOf(workflowId: string): Map<string, StoredTask> {
    let rows = this.tasks.get(workflowId);
    if (!rows) {
      rows = new Map();
      this.tasks.set(workflowId, rows);
    }
    return rows;
  }
}

type Indexed = { workflowName: string; correlationId?: string };

const correlationKey = (name: string, correlationId: string) => `${name}\u0000${correlationId}`;
