/**
 * How a run record is serialized by every adapter. The decider's working set embeds each task;
 * each is stored in compact form (compact-task.ts): the definition's own `workflowTask` is left
 * out and put back from the definition on read, a synthesized one (a dynamic fork's branches) is
 * kept once per distinct shape for the whole record, and fields the record or the task already
 * says are left out. A 1,000-branch dynamic fork's record then holds about 0.3 KB per open branch
 * instead of 1 KB (and far less once the DynamoDB adapter compresses it: execution-items.ts).
 * Records written before the compact form (`codec` absent) are read as they are.
 */
import { baseRef, graphOf } from '../model/definition-graph.ts';
import type { WorkflowDef, WorkflowTask } from '../model/definitions.ts';
import type { TaskRecord, WorkflowRecord } from '../model/execution.ts';
import { type CompactTask, decodeTask, encodeTask, fromShape, ShapeTable } from './compact-task.ts';

/** The version of the stored form; absent in records written before the compact form. */
const CODEC = 2;

interface StoredRun extends Omit<WorkflowRecord, 'tasks'> {
  codec?: number;
  /** The distinct synthesized workflow tasks, without their reference names (compact-task.ts). */
  shapes?: Omit<WorkflowTask, 'taskReferenceName'>[];
  tasks: CompactTask[];
}

/**
 * Serializes a run. With `withoutDefinition` the definition snapshot is left out too, for a store
 * that keeps it beside the JSON (the memory store keeps the frozen object itself).
 */
export function encodeRun(record: WorkflowRecord, options: { withoutDefinition?: boolean } = {}): string {
  const graph = graphOf(record.workflowDefinition);
  const shapes = new ShapeTable();
  const tasks = record.tasks.map((task) => {
    const ref = baseRef(task.referenceTaskName);
    const form =
      graph.task(ref) === task.workflowTask
        ? 'definition'
        : task.workflowTask.taskReferenceName === ref
          ? 'shape'
          : 'inline';
    return encodeTask(task, record, form, shapes);
  });
  const stored: StoredRun = { ...record, codec: CODEC, shapes: shapes.shapes, tasks };
  if (options.withoutDefinition) {
    const { workflowDefinition: _def, ...rest } = stored;
    return JSON.stringify(rest);
  }
  return JSON.stringify(stored);
}

/** Reads a run back; `definition` supplies the snapshot when it was stored beside the JSON. */
export function decodeRun(json: string, definition?: WorkflowDef): WorkflowRecord {
  const { codec, shapes = [], tasks, ...rest } = JSON.parse(json) as StoredRun;
  const record = rest as WorkflowRecord;
  if (definition) record.workflowDefinition = definition;
  const graph = graphOf(record.workflowDefinition);
  const definedTask = (ref: string): WorkflowTask => {
    const defined = graph.task(baseRef(ref));
    if (!defined) throw new Error(`Run ${record.workflowId}: no definition task for ${ref}`);
    return defined;
  };
  if (codec === undefined) {
    // The whole-task form of earlier records: only the definition's own workflowTask left out.
    record.tasks = tasks as unknown as TaskRecord[];
    for (const task of record.tasks) task.workflowTask ??= definedTask(task.referenceTaskName);
    return record;
  }
  record.tasks = tasks.map((stored) => {
    const ref = stored.referenceTaskName as string;
    const shape = typeof stored.shape === 'number' ? shapes[stored.shape] : undefined;
    const workflowTask = shape
      ? fromShape(shape, baseRef(ref))
      : ((stored.workflowTask as WorkflowTask | undefined) ?? definedTask(ref));
    return decodeTask(stored, record, workflowTask);
  });
  return record;
}
