/**
 * How a run record is serialized by every adapter. The decider's working set embeds each task
 * with its `workflowTask`, which is the definition's own task for that reference name; storing it
 * again per task would roughly double the record. It is left out when it is that very object and
 * put back from the definition on read. (A task type that synthesizes its own workflow tasks
 * simply keeps them: only the definition's own objects are left out.)
 */
import { baseRef, graphOf } from '../model/definition-graph.ts';
import type { WorkflowDef } from '../model/definitions.ts';
import type { TaskRecord, WorkflowRecord } from '../model/execution.ts';

/**
 * Serializes a run. With `withoutDefinition` the definition snapshot is left out too, for a store
 * that keeps it beside the JSON (the memory store keeps the frozen object itself).
 */
export function encodeRun(record: WorkflowRecord, options: { withoutDefinition?: boolean } = {}): string {
  const graph = graphOf(record.workflowDefinition);
  const tasks = record.tasks.map((task) => {
    if (graph.task(baseRef(task.referenceTaskName)) !== task.workflowTask) return task;
    const { workflowTask: _omitted, ...rest } = task;
    return rest;
  });
  if (options.withoutDefinition) {
    const { workflowDefinition: _def, ...rest } = record;
    return JSON.stringify({ ...rest, tasks });
  }
  return JSON.stringify({ ...record, tasks });
}

/** Reads a run back; `definition` supplies the snapshot when it was stored beside the JSON. */
export function decodeRun(json: string, definition?: WorkflowDef): WorkflowRecord {
  const record = JSON.parse(json) as WorkflowRecord;
  if (definition) record.workflowDefinition = definition;
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

const frozen = new WeakSet<object>();

/**
 * Freezes a definition snapshot deeply, once per object, so it can be shared by every read of a
 * run instead of copied: a run's definition never changes, and any code that tried to change one
 * would fail loudly instead of corrupting other readers.
 */
export function freezeDefinition(def: WorkflowDef): WorkflowDef {
  const visit = (value: unknown): void => {
    if (typeof value !== 'object' || value === null || frozen.has(value)) return;
    frozen.add(value);
    for (const child of Object.values(value)) visit(child);
    Object.freeze(value);
  };
  visit(def);
  return def;
}
