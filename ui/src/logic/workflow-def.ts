/**
 * Editing a workflow definition through forms: new definitions and tasks, replacing one task,
 * and the schema references of a task (kept, as Conductor's UI keeps them, on the task's inline
 * `taskDefinition`). Every function returns a new object; the JSON view is the definition printed.
 */
import type { WorkflowDef } from '../api/routes.ts';
import { type SchemaField, type SchemaRef, withRef } from './schema-ref.ts';

export type Task = WorkflowDef['tasks'][number];

/** Task types with their own form; every other type is edited as JSON in place. */
export const FORM_TYPES = ['SIMPLE', 'YIELD'] as const;

export function newWorkflowDef(): WorkflowDef {
  return {
    name: '',
    description: '',
    version: 1,
    schemaVersion: 2,
    tasks: [],
    inputParameters: [],
    outputParameters: {},
    restartable: true,
    workflowStatusListenerEnabled: false,
    timeoutPolicy: 'ALERT_ONLY',
    timeoutSeconds: 0,
    variables: {},
    inputTemplate: {},
  };
}

/** A reference name not yet used by any task of the definition (nested ones included). */
export function freshRef(def: WorkflowDef, base: string): string {
  const used = new Set<string>();
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === 'object' && value !== null) {
      const ref = (value as { taskReferenceName?: unknown }).taskReferenceName;
      if (typeof ref === 'string') used.add(ref);
      Object.values(value).forEach(walk);
    }
  };
  walk(def.tasks);
  for (let n = 1; ; n++) {
    const candidate = `${base}_${n}`;
    if (!used.has(candidate)) return candidate;
  }
}

export function newTask(def: WorkflowDef, type: 'SIMPLE' | 'YIELD'): Task {
  const ref = freshRef(def, type.toLowerCase());
  return {
    name: type === 'SIMPLE' ? `${ref}_task` : ref,
    taskReferenceName: ref,
    type,
    inputParameters: {},
    optional: false,
    startDelay: 0,
    asyncComplete: false,
  };
}

export function replaceTask(def: WorkflowDef, index: number, task: Task): WorkflowDef {
  return { ...def, tasks: def.tasks.map((t, i) => (i === index ? task : t)) };
}

export function removeTask(def: WorkflowDef, index: number): WorkflowDef {
  return { ...def, tasks: def.tasks.filter((_, i) => i !== index) };
}

export function moveTask(def: WorkflowDef, index: number, by: -1 | 1): WorkflowDef {
  const to = index + by;
  if (to < 0 || to >= def.tasks.length) return def;
  const tasks = [...def.tasks];
  const [moved] = tasks.splice(index, 1);
  if (moved) tasks.splice(to, 0, moved);
  return { ...def, tasks };
}

/** The schema a task names, read from its inline task definition. */
export function taskSchemaHolder(task: Task): Record<string, unknown> | undefined {
  return task.taskDefinition as Record<string, unknown> | undefined;
}

/** Sets a task's input or output schema on its inline task definition (created with the task's name). */
export function withTaskSchema(task: Task, field: SchemaField, ref: SchemaRef | undefined): Task {
  const current = (task.taskDefinition ?? { name: task.name }) as Record<string, unknown>;
  const next = withRef(current, field, ref);
  const onlyName = Object.keys(next).every((key) => key === 'name');
  const copy: Task = { ...task };
  if (onlyName && !task.taskDefinition) delete copy.taskDefinition;
  else copy.taskDefinition = next as Task['taskDefinition'];
  return copy;
}
