/**
 * Workflow definition validation and defaults (docs/conductor-compat.md §0.3, §2.2, §2.3).
 * An invalid definition is a 400 "The workflow definition is not valid" listing every problem.
 */
import type { WorkflowDef, WorkflowTask } from '../model/definitions.ts';
import { tagFieldProblems } from '../model/tags.ts';
import { CHILD_FIELDS, isKnownTaskType, specOf } from '../model/task-types/index.ts';
import { checkType, Issues, isBlank, isObject } from '../validation/issues.ts';
import { checkTaskDef, normalizeTaskDef } from './task-def.ts';

export const INVALID_WORKFLOW = 'The workflow definition is not valid';

export interface WorkflowDefContext {
  /** Whether a task definition of this name is registered (user-defined types need one). */
  taskDefExists(name: string): boolean;
}

interface Walked {
  task: Record<string, unknown>;
  path: string;
}

/**
 * Every task of the definition, nested ones included, with its JSON path. Definitions are still
 * raw JSON here, so every child-list field any type declares is walked and shape-checked on every
 * task: a wrongly shaped list is reported wherever it appears.
 */
function walk(tasks: unknown, path: string, out: Walked[], issues: Issues): void {
  if (!Array.isArray(tasks)) {
    issues.add(path, 'must be an array of tasks');
    return;
  }
  tasks.forEach((task, i) => {
    const at = `${path}[${i}]`;
    if (!isObject(task)) {
      issues.add(at, 'must be a task object');
      return;
    }
    out.push({ task, path: `${at}.` });
    for (const field of CHILD_FIELDS) {
      const value = task[field.name];
      if (value == null) continue;
      const where = `${at}.${field.name}`;
      if (field.shape === 'list') walk(value, where, out, issues);
      else if (field.shape === 'map') {
        if (isObject(value)) {
          for (const [key, branch] of Object.entries(value)) walk(branch, `${where}.${key}`, out, issues);
        } else issues.add(where, 'must be an object of task lists');
      } else if (Array.isArray(value)) {
        for (const [b, branch] of value.entries()) walk(branch, `${where}[${b}]`, out, issues);
      } else issues.add(where, 'must be an array of task lists');
    }
  });
}

/** Every task object of a raw (not yet validated) task list, nested ones included. */
export function rawTasksOf(tasks: unknown): Record<string, unknown>[] {
  const out: Walked[] = [];
  if (Array.isArray(tasks)) walk(tasks, '', out, new Issues());
  return out.map((w) => w.task);
}

/** `${a.b}` expressions in a value, outermost first (nested `${}` inside a path are left to the engine). */
function templateRoots(value: unknown, out: string[]): void {
  if (typeof value === 'string') {
    for (const m of value.matchAll(/(?<!\$)\$\{([^}]*)\}/g)) {
      const expr = (m[1] ?? '').trim();
      if (expr !== '') out.push(expr.split(/[.[]/)[0] ?? expr);
    }
  } else if (Array.isArray(value)) {
    for (const v of value) templateRoots(v, out);
  } else if (isObject(value)) {
    for (const v of Object.values(value)) templateRoots(v, out);
  }
}

export function validateWorkflowDef(body: unknown, ctx: WorkflowDefContext, path = ''): WorkflowDef {
  const issues = new Issues();
  checkWorkflowDef(issues, body, ctx, path);
  issues.throwIfAny(INVALID_WORKFLOW);
  return normalizeWorkflowDef(body as Record<string, unknown>);
}

export function checkWorkflowDef(issues: Issues, body: unknown, ctx: WorkflowDefContext, path = ''): boolean {
  const before = issues.list.length;
  if (!isObject(body)) {
    issues.add(path || 'body', 'must be a workflow definition object');
    return false;
  }
  if (isBlank(body.name)) issues.add(`${path}name`, 'WorkflowDef name cannot be null or empty', body.name);
  checkType(issues, body, 'description', 'string', path);
  checkType(issues, body, 'version', 'integer', path, { min: 1 });
  checkType(issues, body, 'timeoutSeconds', 'integer', path, { min: 0 });
  checkType(issues, body, 'restartable', 'boolean', path);
  checkType(issues, body, 'workflowStatusListenerEnabled', 'boolean', path);
  checkType(issues, body, 'inputParameters', 'array', path);
  checkType(issues, body, 'outputParameters', 'object', path);
  checkType(issues, body, 'variables', 'object', path);
  checkType(issues, body, 'inputTemplate', 'object', path);
  checkType(issues, body, 'metadata', 'object', path);
  checkType(issues, body, 'failureWorkflow', 'string', path);
  // Tags are the name's (Orkes' ExtendedWorkflowDef carries them): the metadata service keeps them.
  for (const problem of tagFieldProblems(body.tags))
    issues.add(`${path}${problem.path}`, problem.message, problem.invalidValue);
  checkType(issues, body, 'overwriteTags', 'boolean', path);
  checkType(issues, body, 'failureWorkflowVersion', 'integer', path, { min: 1 });
  checkType(issues, body, 'ownerEmail', 'string', path);
  if (body.schemaVersion != null && body.schemaVersion !== 2) {
    issues.add(`${path}schemaVersion`, 'workflowDef schemaVersion: 2 is only supported', body.schemaVersion);
  }
  if (body.timeoutPolicy != null && !['TIME_OUT_WF', 'ALERT_ONLY'].includes(String(body.timeoutPolicy))) {
    issues.add(`${path}timeoutPolicy`, 'must be TIME_OUT_WF or ALERT_ONLY', body.timeoutPolicy);
  }
  if (!Array.isArray(body.tasks) || body.tasks.length === 0) {
    issues.add(`${path}tasks`, 'WorkflowTask list cannot be empty');
    return false;
  }

  const all: Walked[] = [];
  walk(body.tasks, `${path}tasks`, all, issues);
  const refs = new Map<string, number>();
  for (const { task, path: at } of all) {
    checkTask(issues, task, at, ctx);
    if (typeof task.taskReferenceName === 'string') {
      refs.set(task.taskReferenceName, (refs.get(task.taskReferenceName) ?? 0) + 1);
    }
  }
  for (const [ref, count] of refs) {
    if (count > 1)
      issues.add(
        `${path}tasks`,
        `taskReferenceName: ${ref} should be unique across tasks for a given workflowDefinition: ${String(body.name)}`,
        ref,
      );
  }

  // Every ${x...} in a top-level task's input must name the workflow, a task of this
  // definition, or the task-id placeholder (Conductor's WorkflowTaskValidConstraint).
  (body.tasks as unknown[]).forEach((task, i) => {
    if (!isObject(task)) return;
    const roots: string[] = [];
    templateRoots(task.inputParameters, roots);
    for (const root of roots) {
      if (root === 'workflow' || root === 'CPEWF_TASK_ID' || root.startsWith('$') || refs.has(root)) continue;
      issues.add(
        `${path}tasks[${i}].inputParameters`,
        `taskReferenceName: ${root} referenced in the input of task ${String(task.taskReferenceName)} is not defined in workflow: ${String(body.name)}`,
        root,
      );
    }
  });
  return issues.list.length === before;
}

function checkTask(issues: Issues, task: Record<string, unknown>, at: string, ctx: WorkflowDefContext): void {
  if (isBlank(task.name)) issues.add(`${at}name`, 'WorkflowTask name cannot be empty or null', task.name);
  if (isBlank(task.taskReferenceName)) {
    issues.add(
      `${at}taskReferenceName`,
      'WorkflowTask taskReferenceName name cannot be empty or null',
      task.taskReferenceName,
    );
  }
  checkType(issues, task, 'type', 'string', at);
  checkType(issues, task, 'inputParameters', 'object', at);
  checkType(issues, task, 'optional', 'boolean', at);
  checkType(issues, task, 'asyncComplete', 'boolean', at);
  checkType(issues, task, 'startDelay', 'integer', at, { min: 0 });
  checkType(issues, task, 'retryCount', 'integer', at, { min: 0 });
  checkType(issues, task, 'joinOn', 'array', at);
  if (task.taskDefinition != null) checkTaskDef(issues, task.taskDefinition, `${at}taskDefinition.`);
  const type = typeof task.type === 'string' ? task.type : 'SIMPLE';
  if (!isKnownTaskType(type) && !ctx.taskDefExists(String(task.name)) && task.taskDefinition == null) {
    issues.add(
      `${at}type`,
      `taskType: ${type} is not a known task type and no task definition named ${String(task.name)} is registered`,
      type,
    );
  }
  specOf(type).validate?.(task, at, issues);
}

function normalizeTask(raw: Record<string, unknown>): WorkflowTask {
  const task: WorkflowTask = {
    ...raw,
    name: String(raw.name),
    taskReferenceName: String(raw.taskReferenceName),
    type: typeof raw.type === 'string' ? raw.type : 'SIMPLE',
    inputParameters: (raw.inputParameters as Record<string, unknown> | undefined) ?? {},
    optional: raw.optional === true,
    startDelay: (raw.startDelay as number | undefined) ?? 0,
    asyncComplete: raw.asyncComplete === true,
  };
  if (isObject(raw.taskDefinition)) task.taskDefinition = normalizeTaskDef(raw.taskDefinition);
  // The child lists this type declares, normalized in turn (validation has checked their shape).
  for (const field of specOf(task.type).children ?? []) {
    const value = raw[field.name];
    if (field.shape === 'list' && Array.isArray(value))
      (task as Record<string, unknown>)[field.name] = normalizeList(value);
    else if (field.shape === 'lists' && Array.isArray(value))
      (task as Record<string, unknown>)[field.name] = value.map(normalizeList);
    else if (field.shape === 'map' && isObject(value))
      (task as Record<string, unknown>)[field.name] = Object.fromEntries(
        Object.entries(value).map(([k, list]) => [k, normalizeList(list)]),
      );
  }
  return task;
}

function normalizeList(list: unknown): WorkflowTask[] {
  return (list as Record<string, unknown>[]).map(normalizeTask);
}

/** Fills Conductor's defaults; audit fields and tags (the name's, not the definition's) are left out. */
export function normalizeWorkflowDef(raw: Record<string, unknown>): WorkflowDef {
  const {
    createTime: _c,
    updateTime: _u,
    createdBy: _cb,
    updatedBy: _ub,
    tags: _tags,
    overwriteTags: _overwrite,
    ...rest
  } = raw;
  return {
    ...rest,
    name: String(raw.name).trim(),
    version: (raw.version as number | undefined) ?? 1,
    tasks: (raw.tasks as Record<string, unknown>[]).map(normalizeTask),
    inputParameters: (raw.inputParameters as string[] | undefined) ?? [],
    outputParameters: (raw.outputParameters as Record<string, unknown> | undefined) ?? {},
    schemaVersion: 2,
    restartable: raw.restartable !== false,
    workflowStatusListenerEnabled: raw.workflowStatusListenerEnabled === true,
    timeoutPolicy: (raw.timeoutPolicy as WorkflowDef['timeoutPolicy'] | undefined) ?? 'ALERT_ONLY',
    timeoutSeconds: (raw.timeoutSeconds as number | undefined) ?? 0,
    variables: (raw.variables as Record<string, unknown> | undefined) ?? {},
    inputTemplate: (raw.inputTemplate as Record<string, unknown> | undefined) ?? {},
  };
}
