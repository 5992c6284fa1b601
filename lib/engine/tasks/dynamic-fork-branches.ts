/**
 * The branches of a FORK_JOIN_DYNAMIC (docs/conductor-compat.md §5.8), read from its resolved input
 * in whichever of the three styles the workflow task uses. Answers the branches, or the reason the
 * payload cannot be forked (the fork then fails terminally).
 */
import { forEachTask } from '../../model/definition-graph.ts';
import type { WorkflowDef, WorkflowTask } from '../../model/definitions.ts';
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

export function dynamicBranches(
  wt: WorkflowTask,
  input: Record<string, unknown>,
  def: WorkflowDef,
): Branch[] | string {
  const branches = wt.dynamicForkJoinTasksParam
    ? legacy(input[wt.dynamicForkJoinTasksParam])
    : wt.dynamicForkTasksParam
      ? classic(input[wt.dynamicForkTasksParam], input[wt.dynamicForkTasksInputParamName ?? ''])
      : modern(wt, input, def);
  if (typeof branches === 'string') return branches;
  const seen = new Set<string>();
  for (const { workflowTask } of branches) {
    const ref = workflowTask.taskReferenceName;
    if (seen.has(ref))
      return `Duplicate task reference name ${ref} in the dynamic fork ${wt.taskReferenceName}`;
    seen.add(ref);
    if (needsPlace(workflowTask.type)) return unplaceable(wt, workflowTask);
  }
  return wt.optional
    ? branches.map((b) => ({ ...b, workflowTask: { ...b.workflowTask, optional: true } }))
    : branches;
}

/**
 * Types whose tasks need a place in the definition, which a dynamic branch has not: containers
 * (SWITCH, DECISION, DO_WHILE, FORK_JOIN: what runs after each child is read from the definition),
 * a FORK_JOIN_DYNAMIC (the JOIN after it) and the joins (the forks before them).
 */
const PLACED = new Set(['FORK_JOIN_DYNAMIC', 'JOIN', 'EXCLUSIVE_JOIN']);
const needsPlace = (type: string): boolean => PLACED.has(type) || specOf(type).children !== undefined;

function unplaceable(fork: WorkflowTask, branch: WorkflowTask): string {
  return (
    `Dynamic fork ${fork.taskReferenceName}: branch ${branch.taskReferenceName} is a ${branch.type}, ` +
    'and a dynamically forked task cannot be a SWITCH, DECISION, DO_WHILE, FORK_JOIN, ' +
    'FORK_JOIN_DYNAMIC, JOIN or EXCLUSIVE_JOIN here; fork SUB_WORKFLOW branches (forkTaskWorkflow) ' +
    'to run several tasks per branch'
  );
}

/** `forkTaskInputs` (one branch per item) with `forkTaskName`, `forkTaskType` or `forkTaskWorkflow`. */
function modern(wt: WorkflowTask, input: Record<string, unknown>, def: WorkflowDef): Branch[] | string {
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
  forEachTask(def.tasks, (t) => {
    if (t.type === 'FORK_JOIN_DYNAMIC') dynamicForks++;
  });
  const prefix = dynamicForks > 1 ? `_${wt.taskReferenceName}_${name}` : `_${name}`;
  return items.map((item, i) => {
    const branchInput = isMap(item) ? { ...item, __index: i } : { input: item, __index: i };
    const workflowTask = branchTask({ name, taskReferenceName: `${prefix}_${i}`, type });
    if (workflow) {
      const version = Number(input.forkTaskWorkflowVersion);
      workflowTask.subWorkflowParam = { name: workflow, ...(Number.isInteger(version) ? { version } : {}) };
    }
    return { workflowTask, input: branchInput };
  });
}

/** `dynamicForkTasksParam`: a list of workflow tasks; `dynamicForkTasksInputParamName`: `{ref: input}`. */
function classic(tasks: unknown, inputs: unknown): Branch[] | string {
  if (!Array.isArray(tasks)) return 'Input to the dynamically forked tasks is not a list of tasks';
  const byRef = isMap(inputs) ? inputs : {};
  const out: Branch[] = [];
  for (const task of tasks) {
    if (!isMap(task) || typeof task.taskReferenceName !== 'string' || task.taskReferenceName === '')
      return 'Every dynamically forked task needs a taskReferenceName';
    const ref = task.taskReferenceName;
    const given = byRef[ref];
    if (given !== undefined && given !== null && !isMap(given))
      return `Input to the dynamically forked task ${ref} is not a map`;
    const workflowTask = branchTask({
      ...(task as Partial<WorkflowTask>),
      taskReferenceName: ref,
      name: typeof task.name === 'string' && task.name !== '' ? task.name : ref,
      type: typeof task.type === 'string' && task.type !== '' ? task.type : 'SIMPLE',
    });
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
