/**
 * Reading runs for the API (/api/workflow retrieval routes): the execution object with its tasks,
 * the status summary, the paged task list, running ids and correlation lookups.
 */
import { outputViews } from '../engine/output-views.ts';
import type { TaskTypeRegistry } from '../engine/registry.ts';
import { type ApiTask, type ApiWorkflow, toApiTask, toApiWorkflow } from '../model/api.ts';
import { NotFoundError, quote } from '../model/errors.ts';
import type { TaskRecord, TaskStatus, WorkflowRecord, WorkflowStatus } from '../model/execution.ts';
import type { RunQueries, RunStore, TaskRows } from '../store/ports.ts';
import { rowsOfRun } from '../store/run-rows.ts';

export class WorkflowReader {
  constructor(
    private readonly executions: RunStore & TaskRows & RunQueries,
    private readonly registry: TaskTypeRegistry,
  ) {}

  async record(workflowId: string): Promise<WorkflowRecord> {
    const record = await this.executions.getWorkflow(workflowId);
    if (!record) throw new NotFoundError(`No such workflow found by id: ${quote(workflowId)}`);
    return record;
  }

  async get(workflowId: string, includeTasks: boolean): Promise<ApiWorkflow> {
    const record = await this.record(workflowId);
    return toApiWorkflow(record, includeTasks ? await this.tasksOf(record) : []);
  }

  /** Every task row of the run, by seq, through its type's output view (DO_WHILE outputs in full). */
  async tasksOf(record: WorkflowRecord): Promise<TaskRecord[]> {
    const rows = await rowsOfRun(this.executions, record);
    return outputViews(this.registry, record.workflowDefinition, rows);
  }

  async status(
    workflowId: string,
    includeOutput: boolean,
    includeVariables: boolean,
  ): Promise<Record<string, unknown>> {
    const record = await this.record(workflowId);
    const out: Record<string, unknown> = {
      workflowId: record.workflowId,
      correlationId: record.correlationId,
      status: record.status,
    };
    if (includeOutput) out.output = record.output;
    if (includeVariables) out.variables = record.variables;
    return out;
  }

  async tasks(
    workflowId: string,
    start: number,
    count: number,
    statuses: TaskStatus[],
  ): Promise<{ totalHits: number; results: ApiTask[] }> {
    const record = await this.record(workflowId);
    let tasks = await this.tasksOf(record);
    if (statuses.length > 0) tasks = tasks.filter((t) => statuses.includes(t.status));
    return { totalHits: tasks.length, results: tasks.slice(start, start + count).map(toApiTask) };
  }

  async running(name: string, version: number, startTime?: number, endTime?: number): Promise<string[]> {
    const runs = await this.executions.findWorkflows({
      name,
      version,
      statuses: ['RUNNING'],
      startedAfter: startTime,
      startedBefore: endTime,
    });
    return runs.map((r) => r.workflowId);
  }

  async correlated(
    name: string,
    correlationId: string,
    includeClosed: boolean,
    includeTasks: boolean,
  ): Promise<ApiWorkflow[]> {
    const statuses: WorkflowStatus[] | undefined = includeClosed ? undefined : ['RUNNING'];
    const runs = await this.executions.findWorkflows({ name, correlationId, statuses });
    const out: ApiWorkflow[] = [];
    for (const run of runs) out.push(toApiWorkflow(run, includeTasks ? await this.tasksOf(run) : []));
    return out;
  }
}
