/**
 * How a run record is serialized by every adapter. The decider's working set embeds each task
 * with its `workflowTask`, which is the definition's own task for that reference name; storing it
 * again per task would roughly double the record. It is left out when it is that very object and
 * put back from the definition on read. (A task type that synthesizes its own workflow tasks
 * simply keeps them: only the definition's own objects are left out.)
 */
import { baseRef, graphOf } from '../engine/graph.ts';
import type { TaskRecord, WorkflowRecord } from '../model/execution.ts';

export function encodeRun(record: WorkflowRecord): string {
  const graph = graphOf(record.workflowDefinition);
  const tasks = record.tasks.map((task) => {
    if (graph.task(baseRef(task.referenceTaskName)) !== task.workflowTask) return task;
    const { workflowTask: _omitted, ...rest } = task;
    return rest;
  });
  return JSON.stringify({ ...record, tasks });
}

export function decodeRun(json: string): WorkflowRecord {
  const record = JSON.parse(json) as WorkflowRecord;
  const graph = graphOf(record.workflowDefinition);
  for (const task of record.tasks as (TaskRecord & { workflowTask?: TaskRecord['workflowTask'] })[]) {
    if (task.workflowTask) continue;
    const defined = graph.task(baseRef(task.referenceTaskName));
    if (!defined)
      throw new Error(`Run ${record.workflowId}: no definition task for ${task.referenceTaskName}`);
    task.workflowTask = defined;
  }
  return record;
}
