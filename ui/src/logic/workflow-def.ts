/**
 * Editing a workflow definition through forms: new definitions and tasks, and tasks found by
 * their path from the definition down (top-level tasks, and tasks inside FORK_JOIN branches,
 * SWITCH/DECISION cases and DO_WHILE loops), replaced, added, moved and removed. A FORK_JOIN's
 * JOIN keeps waiting for the last task of every branch while its `joinOn` was in step with them.
 * The schema references of a task live (as in Conductor's UI) on its inline `taskDefinition`;
 * inline-task-def.ts says what that definition carries. Every function returns a new object.
 */
import type { TaskDef, WorkflowDef } from '../api/routes.ts';
import { inlineDefFor, shouldDropInline } from './inline-task-def.ts';
import { type SchemaField, type SchemaRef, withRef } from './schema-ref.ts';

export type Task = WorkflowDef['tasks'][number];

/** Where a task sits: the keys from the definition down to it, e.g. `['tasks', 2, 'forkTasks', 0, 1]`. */
export type TaskPath = readonly (string | number)[];

/** A list of tasks inside a task, with the words that name it on screen. */
export interface ChildList {
  label: string;
  path: TaskPath;
  /** A fork branch or a switch case can be removed; a default case or a loop body cannot. */
  removable: boolean;
}

/** Task types the Add menu offers (a FORK_JOIN comes with its JOIN). */
export const ADDABLE_TYPES = [
  'SIMPLE',
  'YIELD',
  'FORK_JOIN',
  'SWITCH',
  'DO_WHILE',
  'WAIT',
  'HTTP',
  'INLINE',
  'SET_VARIABLE',
  'SUB_WORKFLOW',
  'TERMINATE',
] as const;
export type AddableType = (typeof ADDABLE_TYPES)[number];

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

/** Calls `visit` on every task of the definition, nested ones included, with its path. */
export function forEachTask(def: WorkflowDef, visit: (task: Task, path: TaskPath) => void): void {
  const walk = (list: unknown, at: TaskPath) => {
    if (!Array.isArray(list)) return;
    list.forEach((task: Task, i) => {
      if (typeof task !== 'object' || task === null) return;
      const path = [...at, i];
      visit(task, path);
      for (const child of childLists(task, path)) walk(getIn(def, child.path), child.path);
    });
  };
  walk(def.tasks, ['tasks']);
}

/** The reference names used anywhere in the definition. */
function usedRefs(def: WorkflowDef): Set<string> {
  const used = new Set<string>();
  forEachTask(def, (task) => used.add(task.taskReferenceName));
  return used;
}

/** A reference name not yet used by any task of the definition (nested ones included). */
export function freshRef(def: WorkflowDef, base: string, used = usedRefs(def)): string {
  for (let n = 1; ; n++) {
    const candidate = `${base}_${n}`;
    if (!used.has(candidate)) {
      used.add(candidate);
      return candidate;
    }
  }
}

const basic = (name: string, ref: string, type: string, extra: Partial<Task> = {}): Task => ({
  name,
  taskReferenceName: ref,
  type,
  inputParameters: {},
  optional: false,
  startDelay: 0,
  asyncComplete: false,
  ...extra,
});

/**
 * The tasks to add for a type: one task, or a FORK_JOIN with two branches and its JOIN. Every
 * reference name is new to the definition; containers start with one Simple task inside.
 */
export function newTasks(def: WorkflowDef, type: AddableType): Task[] {
  const used = usedRefs(def);
  const ref = freshRef(def, type.toLowerCase(), used);
  const simple = () => {
    const inner = freshRef(def, 'simple', used);
    return basic(`${inner}_task`, inner, 'SIMPLE');
  };
  switch (type) {
    case 'SIMPLE':
      return [basic(`${ref}_task`, ref, type)];
    case 'FORK_JOIN': {
      const branches = [[simple()], [simple()]];
      const join = freshRef(def, 'join', used);
      return [
        basic(ref, ref, type, { forkTasks: branches }),
        basic(join, join, 'JOIN', { joinOn: lastRefs(branches) }),
      ];
    }
    case 'SWITCH':
      return [
        basic(ref, ref, type, {
          evaluatorType: 'value-param',
          expression: 'switchCaseValue',
          // biome-ignore lint/suspicious/noTemplateCurlyInString: Conductor's expression syntax.
          inputParameters: { switchCaseValue: '${workflow.input.case}' },
          decisionCases: { case_1: [simple()] },
          defaultCase: [],
        }),
      ];
    case 'DO_WHILE':
      return [
        basic(ref, ref, type, {
          loopCondition: `if ($.${ref}['iteration'] < 3) { true; } else { false; }`,
          loopOver: [simple()],
        }),
      ];
    case 'HTTP':
      return [
        basic(ref, ref, type, {
          inputParameters: { http_request: { uri: 'https://example.com', method: 'GET' } },
        }),
      ];
    case 'INLINE':
      return [basic(ref, ref, type, { inputParameters: { evaluatorType: 'javascript', expression: '1' } })];
    case 'SUB_WORKFLOW':
      return [basic(ref, ref, type, { subWorkflowParam: { name: '' } })];
    case 'TERMINATE':
      return [basic(ref, ref, type, { inputParameters: { terminationStatus: 'COMPLETED' } })];
    default:
      return [basic(ref, ref, type)];
  }
}

/** The lists of tasks inside a task, with their paths (the task's own path then the field). */
export function childLists(task: Task, path: TaskPath): ChildList[] {
  switch (task.type) {
    case 'FORK_JOIN':
      return (Array.isArray(task.forkTasks) ? task.forkTasks : []).map((_, i) => ({
        label: `Branch ${i + 1}`,
        path: [...path, 'forkTasks', i],
        removable: true,
      }));
    case 'SWITCH':
    case 'DECISION':
      return [
        ...Object.keys(task.decisionCases ?? {}).map((key) => ({
          label: `Case ${key}`,
          path: [...path, 'decisionCases', key],
          removable: true,
        })),
        { label: 'Default case', path: [...path, 'defaultCase'], removable: false },
      ];
    case 'DO_WHILE':
      return [{ label: 'Loop over', path: [...path, 'loopOver'], removable: false }];
    default:
      return [];
  }
}

export function getIn(root: unknown, path: TaskPath): unknown {
  let at = root;
  for (const key of path) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<string | number, unknown>)[key];
  }
  return at;
}

/** A copy of `root` with the value at `path` replaced (missing containers are created). */
export function setIn<T>(root: T, path: TaskPath, value: unknown): T {
  const [key, ...rest] = path;
  if (key === undefined) return value as T;
  const current = (root ?? (typeof key === 'number' ? [] : {})) as Record<string | number, unknown>;
  const next = rest.length === 0 ? value : setIn(current[key], rest, value);
  if (Array.isArray(current)) return current.map((v, i) => (i === key ? next : v)) as T;
  return { ...current, [key]: next } as T;
}

export function taskAt(def: WorkflowDef, path: TaskPath): Task | undefined {
  const task = getIn(def, path);
  return typeof task === 'object' && task !== null && !Array.isArray(task) ? (task as Task) : undefined;
}

/** The list a task sits in, and its index there. */
function parentOf(path: TaskPath): { list: TaskPath; index: number } {
  return { list: path.slice(0, -1), index: path.at(-1) as number };
}

function listAt(def: WorkflowDef, path: TaskPath): Task[] {
  const list = getIn(def, path);
  return Array.isArray(list) ? (list as Task[]) : [];
}

export function replaceTaskAt(def: WorkflowDef, path: TaskPath, task: Task): WorkflowDef {
  return setIn(def, path, task);
}

/** Removes a task; a FORK_JOIN takes the JOIN right after it along. */
export function removeTaskAt(def: WorkflowDef, path: TaskPath): WorkflowDef {
  const { list, index } = parentOf(path);
  const tasks = listAt(def, list);
  const withJoin = tasks[index]?.type === 'FORK_JOIN' && tasks[index + 1]?.type === 'JOIN';
  return setIn(
    def,
    list,
    tasks.filter((_, i) => i !== index && !(withJoin && i === index + 1)),
  );
}

export function moveTaskAt(def: WorkflowDef, path: TaskPath, by: -1 | 1): WorkflowDef {
  const { list, index } = parentOf(path);
  const tasks = [...listAt(def, list)];
  const to = index + by;
  if (to < 0 || to >= tasks.length) return def;
  const [moved] = tasks.splice(index, 1);
  if (moved) tasks.splice(to, 0, moved);
  return setIn(def, list, tasks);
}

/** Adds tasks of a type at the end of a list; answers the definition and the new task's path. */
export function addTaskTo(
  def: WorkflowDef,
  list: TaskPath,
  type: AddableType,
): { def: WorkflowDef; path: TaskPath } {
  const tasks = listAt(def, list);
  return { def: setIn(def, list, [...tasks, ...newTasks(def, type)]), path: [...list, tasks.length] };
}

/** Adds an empty branch to a FORK_JOIN, or a new case (named `key`) to a SWITCH. */
export function addBranch(def: WorkflowDef, path: TaskPath, key?: string): WorkflowDef {
  const task = taskAt(def, path);
  if (!task) return def;
  if (task.type === 'FORK_JOIN') return setIn(def, [...path, 'forkTasks'], [...(task.forkTasks ?? []), []]);
  if (key === undefined || key === '' || key in (task.decisionCases ?? {})) return def;
  return setIn(def, [...path, 'decisionCases'], { ...(task.decisionCases ?? {}), [key]: [] });
}

/** Removes a FORK_JOIN branch or a SWITCH case (the default case stays). */
export function removeBranch(def: WorkflowDef, list: TaskPath): WorkflowDef {
  const owner = list.slice(0, -2);
  const [field, key] = list.slice(-2);
  const task = taskAt(def, owner);
  if (!task) return def;
  if (field === 'forkTasks')
    return setIn(
      def,
      [...owner, 'forkTasks'],
      (task.forkTasks ?? []).filter((_, i) => i !== key),
    );
  if (field === 'decisionCases') {
    const cases = { ...(task.decisionCases ?? {}) };
    delete cases[key as string];
    return setIn(def, [...owner, 'decisionCases'], cases);
  }
  return def;
}

/** The path of the first task with this reference name. */
export function pathOfRef(def: WorkflowDef, ref: string): TaskPath | undefined {
  let found: TaskPath | undefined;
  forEachTask(def, (task, path) => {
    if (!found && task.taskReferenceName === ref) found = path;
  });
  return found;
}

/** The tasks from the top level down to the task at `path` (itself included), with their paths. */
export function ancestry(def: WorkflowDef, path: TaskPath): { task: Task; path: TaskPath }[] {
  const out: { task: Task; path: TaskPath }[] = [];
  for (let end = 2; end <= path.length; end++) {
    const at = path.slice(0, end);
    const task = typeof at.at(-1) === 'number' ? taskAt(def, at) : undefined;
    if (task) out.push({ task, path: at });
  }
  return out;
}

const lastRefs = (branches: Task[][]): string[] =>
  branches.flatMap((branch) => {
    const last = branch.at(-1);
    return last ? [last.taskReferenceName] : [];
  });

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x) => b.includes(x));

/**
 * After a form edit: a JOIN right after a FORK_JOIN whose `joinOn` named exactly the last tasks of
 * the fork's branches before the edit names the last tasks after it. A `joinOn` set by hand to
 * something else is left alone.
 */
export function syncJoins(before: WorkflowDef, after: WorkflowDef): WorkflowDef {
  const previous = new Map<string, string[]>();
  forEachTask(before, (task) => {
    if (task.type === 'FORK_JOIN') previous.set(task.taskReferenceName, lastRefs(task.forkTasks ?? []));
  });
  let out = after;
  forEachTask(after, (task, path) => {
    if (task.type !== 'FORK_JOIN') return;
    const { list, index } = parentOf(path);
    const join = listAt(after, list)[index + 1];
    const was = previous.get(task.taskReferenceName);
    const now = lastRefs(task.forkTasks ?? []);
    if (join?.type !== 'JOIN' || !was || sameSet(was, now) || !sameSet(join.joinOn ?? [], was)) return;
    out = setIn(out, [...list, index + 1, 'joinOn'], now);
  });
  return out;
}

/** The schema a task names, read from its inline task definition. */
export function taskSchemaHolder(task: Task): Record<string, unknown> | undefined {
  return task.taskDefinition as Record<string, unknown> | undefined;
}

/**
 * Sets a task's input or output schema on its inline task definition. A task without one gets a
 * copy of the registered definition of its name (so its retry and timeout policy stay), or the
 * policy an unregistered task runs with; one left with no schema and nothing of its own is removed.
 */
export function withTaskSchema(
  task: Task,
  field: SchemaField,
  ref: SchemaRef | undefined,
  registered: TaskDef | undefined,
): Task {
  const current = (task.taskDefinition ?? inlineDefFor(task, registered)) as Record<string, unknown>;
  return withInline(task, withRef(current, field, ref) as TaskDef, registered);
}

/** Sets the inline definition's `enforceSchema` (creating the inline definition as above). */
export function withEnforceSchema(task: Task, enforce: boolean, registered: TaskDef | undefined): Task {
  const current = task.taskDefinition ?? inlineDefFor(task, registered);
  const next: TaskDef = { ...current };
  if (enforce) next.enforceSchema = true;
  else delete next.enforceSchema;
  return withInline(task, next, registered);
}

function withInline(task: Task, inline: TaskDef, registered: TaskDef | undefined): Task {
  const copy: Task = { ...task };
  if (shouldDropInline(inline, task, registered)) delete copy.taskDefinition;
  else copy.taskDefinition = inline;
  return copy;
}
