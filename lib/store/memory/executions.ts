/**
 * In-memory execution store: runs, task rows and logs. Values are deep-copied in and out so no
 * caller can mutate what is stored, as with a real database.
 */
import { ConflictError, VersionConflictError } from '../../model/errors.ts';
import type { TaskRecord, WorkflowRecord } from '../../model/execution.ts';
import type { ExecutionStore, TaskExecLog } from '../ports.ts';

const copy = <T>(value: T): T => structuredClone(value);

export class MemoryExecutionStore implements ExecutionStore {
  private readonly workflows = new Map<string, WorkflowRecord>();
  private readonly tasks = new Map<string, Map<string, TaskRecord>>();
  private readonly taskOwner = new Map<string, string>();
  private readonly taskLogs = new Map<string, TaskExecLog[]>();

  async createWorkflow(record: WorkflowRecord): Promise<void> {
    if (this.workflows.has(record.workflowId))
      throw new ConflictError(`Workflow ${record.workflowId} already exists`);
    this.workflows.set(record.workflowId, copy(record));
  }

  async getWorkflow(workflowId: string): Promise<WorkflowRecord | undefined> {
    const record = this.workflows.get(workflowId);
    return record && copy(record);
  }

  async commitWorkflow(record: WorkflowRecord, expectedRev: number): Promise<void> {
    const current = this.workflows.get(record.workflowId);
    if (!current || current.rev !== expectedRev) {
      throw new VersionConflictError(
        `Workflow ${record.workflowId} changed concurrently (expected rev ${expectedRev})`,
      );
    }
    this.workflows.set(record.workflowId, copy(record));
  }

  async removeWorkflow(workflowId: string): Promise<void> {
    this.workflows.delete(workflowId);
    for (const taskId of this.tasks.get(workflowId)?.keys() ?? []) {
      this.taskOwner.delete(taskId);
      this.taskLogs.delete(taskId);
    }
    this.tasks.delete(workflowId);
  }

  async createTasks(tasks: TaskRecord[]): Promise<TaskRecord[]> {
    return tasks.map((task) => {
      const rows = this.rowsOf(task.workflowInstanceId);
      const existing = rows.get(task.taskId);
      if (existing) return copy(existing);
      rows.set(task.taskId, copy(task));
      this.taskOwner.set(task.taskId, task.workflowInstanceId);
      return copy(task);
    });
  }

  async updateTask(task: TaskRecord, expectedRev: number): Promise<void> {
    const rows = this.rowsOf(task.workflowInstanceId);
    const current = rows.get(task.taskId);
    if (!current || current.rev !== expectedRev) {
      throw new VersionConflictError(
        `Task ${task.taskId} changed concurrently (expected rev ${expectedRev})`,
      );
    }
    rows.set(task.taskId, copy(task));
  }

  async getTask(workflowId: string, taskId: string): Promise<TaskRecord | undefined> {
    const task = this.tasks.get(workflowId)?.get(taskId);
    return task && copy(task);
  }

  async getTasks(workflowId: string, taskIds: readonly string[]): Promise<TaskRecord[]> {
    const rows = this.tasks.get(workflowId);
    if (!rows) return [];
    return taskIds.flatMap((id) => {
      const task = rows.get(id);
      return task ? [copy(task)] : [];
    });
  }

  async findTask(taskId: string): Promise<TaskRecord | undefined> {
    const owner = this.taskOwner.get(taskId);
    return owner === undefined ? undefined : this.getTask(owner, taskId);
  }

  async listTasks(workflowId: string): Promise<TaskRecord[]> {
    return [...(this.tasks.get(workflowId)?.values() ?? [])].sort((a, b) => a.seq - b.seq).map(copy);
  }

  async deleteTasks(workflowId: string, taskIds: readonly string[]): Promise<void> {
    const rows = this.tasks.get(workflowId);
    for (const id of taskIds) {
      rows?.delete(id);
      this.taskOwner.delete(id);
      this.taskLogs.delete(id);
    }
  }

  async findWorkflows(query: Parameters<ExecutionStore['findWorkflows']>[0]): Promise<WorkflowRecord[]> {
    const out: WorkflowRecord[] = [];
    for (const record of this.workflows.values()) {
      if (record.workflowName !== query.name) continue;
      if (query.version !== undefined && record.workflowVersion !== query.version) continue;
      if (query.statuses && !query.statuses.includes(record.status)) continue;
      if (query.correlationId !== undefined && record.correlationId !== query.correlationId) continue;
      if (query.startedAfter !== undefined && record.createTime < query.startedAfter) continue;
      if (query.startedBefore !== undefined && record.createTime > query.startedBefore) continue;
      out.push(copy(record));
    }
    return out.sort((a, b) => a.createTime - b.createTime);
  }

  async dueWakeups(now: number, limit: number): Promise<{ workflowId: string; wakeAt: number }[]> {
    const due: { workflowId: string; wakeAt: number }[] = [];
    for (const record of this.workflows.values()) {
      if (record.wakeAt > 0 && record.wakeAt <= now)
        due.push({ workflowId: record.workflowId, wakeAt: record.wakeAt });
    }
    return due.sort((a, b) => a.wakeAt - b.wakeAt).slice(0, limit);
  }

  async appendLogs(logs: TaskExecLog[]): Promise<void> {
    for (const log of logs) {
      const list = this.taskLogs.get(log.taskId) ?? [];
      list.push(copy(log));
      this.taskLogs.set(log.taskId, list);
    }
  }

  async logs(taskId: string): Promise<TaskExecLog[]> {
    return copy(this.taskLogs.get(taskId) ?? []);
  }

  private rowsOf(workflowId: string): Map<string, TaskRecord> {
    let rows = this.tasks.get(workflowId);
    if (!rows) {
      rows = new Map();
      this.tasks.set(workflowId, rows);
    }
    return rows;
  }
}
