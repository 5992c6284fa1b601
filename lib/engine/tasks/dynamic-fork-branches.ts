/**
 * The branches of a FORK_JOIN_DYNAMIC (docs/conductor-compat.md §5.8), read from its resolved input
 * in whichever of the three styles the workflow task uses. Answers the branches, or the reason the
 * payload cannot be forked (the fork then fails terminally). A branch may be a SWITCH, DECISION or
 * DO_WHILE with the tasks inside it; its tasks get the defaults a registered definition's get.
 */
import { type DefinitionGraph, forEachTask } from '../../model/definition-graph.ts';
import type { WorkflowTask } from '../../model/definitions.ts';
import { specOf } from '../../model/task-types/index.ts';

export interface Branch {
  workflowTask: WorkflowTask;
  /** The map the fork gives the branch, merged over its resolved inputParameters; undefined: none. */
  input?: Record<string, unknown>;
}

/** A branch's workflow task with the defaults a registered definition's tasks get. */
function branchTask(
  fields: Partial<WorkflowTask> & Pick<WorkflowTask, 'name' | 'taskReferenceName' | 'type'>,
): WorkflowTask {
  return { inputParameters: {}, optional: false, startDelay: 0, asyncComplete: false, ...fields };
}

const isMap = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The branches, or why there are none. `graph` is the run's: a reference the definition holds
 * cannot be a branch's (nor a task's inside one).
 */
export function dynamicBranches(
  wt: WorkflowTask,
  input: Record<string, unknown>,
  graph: DefinitionGraph,
): Branch[] | string {
  const branches = wt.dynamicForkJoinTasksParam
    ? legacy(input[wt.dynamicForkJoinTasksParam])
    : wt.dynamicForkTasksParam
      ? classic(input[wt.dynamicForkTasksParam], input[wt.dynamicForkTasksInputParamName ?? ''])
      : modern(wt, input, graph);
  if (typeof branches === 'string') return branches;
  const seen = new Set<string>();
  for (const { workflowTask } of branches) {
    if (UNPLACEABLE[workflowTask.type]) return unplaceable(wt, workflowTask);
    let duplicate: string | undefined;
    forEachTask([workflowTask], (t) => {
      const ref = t.taskReferenceName;
      if (duplicate === undefined && (seen.has(ref) || graph.defines(ref))) duplicate = ref;
      seen.add(ref);
    });
    if (duplicate !== undefined)
      return `Duplicate task reference name ${duplicate} in the dynamic fork ${wt.taskReferenceName}`;
  }
  return wt.optional
    ? branches.map((b) => ({ ...b, workflowTask: { ...b.workflowTask, optional: true } }))
    : branches;
}

/**
 * Types a branch cannot be, and why. A branch is alone in its list: nothing comes before it nor
 * after it there. SWITCH, DECISION and DO_WHILE branches run with everything inside them.
 */
const UNPLACEABLE: Readonly<Record<string, string>> = {
  FORK_JOIN:
    'a FORK_JOIN needs its JOIN right after it in its list, and a branch has nothing after it ' +
    '(Conductor fails it too: "Fork task definition is not followed by a join task")',
  FORK_JOIN_DYNAMIC:
    'a FORK_JOIN_DYNAMIC needs its JOIN right after it in its list, and a branch has nothing after it',
  JOIN: 'a JOIN waits for the branches of a fork before it in its list, and a branch has nothing before it',
  EXCLUSIVE_JOIN:
    'an EXCLUSIVE_JOIN waits for tasks before it in its list, and a branch has nothing before it',
};

function unplaceable(fork: WorkflowTask, branch: WorkflowTask): string {
  return (
    `Dynamic fork ${fork.taskReferenceName}: branch ${branch.taskReferenceName} is a ${branch.type}: ` +
    `${UNPLACEABLE[branch.type]}. Put the fork and its JOIN inside a SWITCH case or a DO_WHILE ` +
    'loopOver branch, or fork SUB_WORKFLOW branches (forkTaskWorkflow)'
  );
}

/**
 * A workflow task given as data, with the defaults a registered definition's tasks get, and the
 * tasks inside it (a SWITCH's cases, a DO_WHILE's loopOver) likewise; or why it is not one.
 */
function forkedTask(raw: unknown): WorkflowTask | string {
  if (!isMap(raw) || typeof raw.taskReferenceName !== 'string' || raw.taskReferenceName === '')
    return 'Every dynamically forked task needs a taskReferenceName';
  const ref = raw.taskReferenceName;
  // The fields the engine reads as they are, shaped as registration would have them.
  for (const field of ['inputParameters', 'taskDefinition', 'subWorkflowParam'] as const) {
    if (raw[field] != null && !isMap(raw[field]))
      return `${field} of the dynamically forked task ${ref} must be a map`;
  }
  for (const field of ['joinOn', 'defaultExclusiveJoinTask'] as const) {
    const refs = raw[field];
    if (refs != null && !(Array.isArray(refs) && refs.every((r) => typeof r === 'string')))
      return `${field} of the dynamically forked task ${ref} must be a list of references`;
  }
  const type = typeof raw.type === 'string' && raw.type !== '' ? raw.type : 'SIMPLE';
  const task = branchTask({
    ...(raw as Partial<WorkflowTask>),
    taskReferenceName: ref,
    name: typeof raw.name === 'string' && raw.name !== '' ? raw.name : ref,
    type,
    inputParameters: isMap(raw.inputParameters) ? raw.inputParameters : {},
    optional: raw.optional === true,
    startDelay: typeof raw.startDelay === 'number' ? raw.startDelay : 0,
    asyncComplete: raw.asyncComplete === true,
  });
  const fields = task as unknown as Record<string, unknown>;
  for (const field of specOf(type).children ?? []) {
    const value = raw[field.name];
    if (value === undefined || value === null) continue;
    const list = (items: unknown): WorkflowTask[] | string => {
      if (!Array.isArray(items)) return `${field.name} of ${ref} must be a list of tasks`;
      const out: WorkflowTask[] = [];
      for (const item of items) {
        const child = forkedTask(item);
        if (typeof child === 'string') return child;
        out.push(child);
      }
      return out;
    };
    let shaped: unknown;
    if (field.shape === 'list') shaped = list(value);
    else if (field.shape === 'lists') {
      if (!Array.isArray(value)) return `${field.name} of ${ref} must be a list of task lists`;
      const lists = value.map(list);
      shaped = lists.find((l) => typeof l === 'string') ?? lists;
    } else {
      if (!isMap(value)) return `${field.name} of ${ref} must be a map of task lists`;
      const entries = Object.entries(value).map(([key, items]) => [key, list(items)] as const);
      shaped = entries.find(([, l]) => typeof l === 'string')?.[1] ?? Object.fromEntries(entries);
    }
    if (typeof shaped === 'string') return shaped;
    fields[field.name] = shaped;
  }
  return task;
}

/** What a SWITCH, DECISION or DO_WHILE made from a `forkTaskInputs` item reads from it. */
const CONTAINER_FIELDS = [
  'evaluatorType',
  'expression',
  'caseValueParam',
  'caseExpression',
  'decisionCases',
  'defaultCase',
  'loopCondition',
  'loopOver',
  'items',
] as const;

/**
 * `forkTaskInputs` (one branch per item) with `forkTaskName`, `forkTaskType` or `forkTaskWorkflow`.
 * A SWITCH, DECISION or DO_WHILE branch takes its own fields (cases, loopOver, condition...) from
 * its item, as Conductor reads the item as a workflow task.
 */
function modern(wt: WorkflowTask, input: Record<string, unknown>, graph: DefinitionGraph): Branch[] | string {
  const items = input.forkTaskInputs ?? [];
  if (!Array.isArray(items))
    return `forkTaskInputs of the dynamic fork ${wt.taskReferenceName} must be a list`;
  const workflow = typeof input.forkTaskWorkflow === 'string' ? input.forkTaskWorkflow : undefined;
  const type = workflow
    ? 'SUB_WORKFLOW'
    : typeof input.forkTaskType === 'string'
      ? input.forkTaskType
      : 'SIMPLE';
  const name =
    typeof input.forkTaskName === 'string' && input.forkTaskName !== ''
      ? input.forkTaskName
      : (workflow ?? (type === 'SIMPLE' ? wt.taskReferenceName : type));
  let dynamicForks = 0;
  forEachTask(graph.def.tasks, (t) => {
    if (t.type === 'FORK_JOIN_DYNAMIC') dynamicForks++;
  });
  const prefix = dynamicForks > 1 ? `_${wt.taskReferenceName}_${name}` : `_${name}`;
  const container = specOf(type).children !== undefined;
  const out: Branch[] = [];
  for (const [i, item] of items.entries()) {
    const branchInput = isMap(item) ? { ...item, __index: i } : { input: item, __index: i };
    const taskReferenceName = `${prefix}_${i}`;
    let workflowTask: WorkflowTask | string = branchTask({ name, taskReferenceName, type });
    if (container && isMap(item)) {
      const own = Object.fromEntries(CONTAINER_FIELDS.filter((f) => f in item).map((f) => [f, item[f]]));
      workflowTask = forkedTask({ ...own, name, taskReferenceName, type });
      if (typeof workflowTask === 'string') return workflowTask;
    }
    if (workflow) {
      const version = Number(input.forkTaskWorkflowVersion);
      workflowTask.subWorkflowParam = { name: workflow, ...(Number.isInteger(version) ? { version } : {}) };
    }
    out.push({ workflowTask, input: branchInput });
  }
  return out;
}

/** `dynamicForkTasksParam`: a list of workflow tasks; `dynamicForkTasksInputParamName`: `{ref: input}`. */
function classic(tasks: unknown, inputs: unknown): Branch[] | string {
  if (!Array.isArray(tasks)) return 'Input to the dynamically forked tasks is not a list of tasks';
  const byRef = isMap(inputs) ? inputs : {};
  const out: Branch[] = [];
  for (const task of tasks) {
    const workflowTask = forkedTask(task);
    if (typeof workflowTask === 'string') return workflowTask;
    const ref = workflowTask.taskReferenceName;
    const given = byRef[ref];
    if (given !== undefined && given !== null && !isMap(given))
      return `Input to the dynamically forked task ${ref} is not a map`;
    out.push({ workflowTask, ...(isMap(given) ? { input: given } : {}) });
  }
  return out;
}

/** `dynamicForkJoinTasksParam`: `{dynamicTasks: [{taskName, referenceName, type, input, workflowName}]}`. */
function legacy(value: unknown): Branch[] | string {
  const list = isMap(value) ? value.dynamicTasks : undefined;
  if (!Array.isArray(list)) return 'Input to the dynamically forked tasks is not a map with dynamicTasks';
  const out: Branch[] = [];
  for (const item of list) {
    if (!isMap(item) || typeof item.referenceName !== 'string' || typeof item.taskName !== 'string')
      return 'Every dynamic fork entry needs a taskName and a referenceName';
    const workflowName = typeof item.workflowName === 'string' ? item.workflowName : undefined;
    const workflowTask = branchTask({
      name: item.taskName,
      taskReferenceName: item.referenceName,
      type: workflowName ? 'SUB_WORKFLOW' : typeof item.type === 'string' ? item.type : 'SIMPLE',
      ...(workflowName ? { subWorkflowParam: { name: workflowName } } : {}),
    });
    out.push({ workflowTask, input: isMap(item.input) ? item.input : {} });
  }
  return out;
}
