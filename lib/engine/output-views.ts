/**
 * What API readers show of task rows: each row through its type's `expandOutput` hook (a DO_WHILE
 * rebuilds its full output from its body rows). Types without the hook show their rows as stored.
 */
import type { WorkflowDef } from '../model/definitions.ts';
import type { TaskRecord } from '../model/execution.ts';
import type { TaskTypeRegistry } from './registry.ts';

/** The run's rows as readers see them; `rows` are every task row of the run. */
export function outputViews(registry: TaskTypeRegistry, def: WorkflowDef, rows: TaskRecord[]): TaskRecord[] {
  return rows.map((row) => {
    const expand = registry.get(row.workflowTask.type).expandOutput;
    return expand ? expand(row, rows, def) : row;
  });
}

/** Whether reading one row of this type needs the run's other rows (TaskService.getTask). */
export function needsRunRows(registry: TaskTypeRegistry, row: TaskRecord): boolean {
  return registry.get(row.workflowTask.type).expandOutput !== undefined;
}
