/**
 * Sub-workflow definitions of a test run. `subWorkflowTestRequest[ref].workflowDef` replaces the
 * child definition of the task `ref` of a type that runs a child workflow (its spec's
 * childWorkflow: SUB_WORKFLOW): the test definition is rewritten so that task carries it inline
 * (`subWorkflowParam.workflowDefinition`), and the real type starts the child from it as it
 * would from any inline definition. A nested plan with definitions of its
 * own rewrites the child's definition the same way, reading a registered child definition
 * (read-only) when no replacement is given. Nothing changes when no plan carries a definition.
 */

import { validateWorkflowDef } from '../../metadata/workflow-def.ts';
import { forEachTask, mapTasks } from '../../model/definition-graph.ts';
import type { WorkflowDef, WorkflowTask } from '../../model/definitions.ts';
import { specOf } from '../../model/task-types/index.ts';
import { isObject } from '../../validation/issues.ts';
import type { TestPlan } from './request.ts';

export type FindWorkflowDef = (name: string, version?: number) => Promise<WorkflowDef | undefined>;

/** Whether the task's type runs a child workflow from its `subWorkflowParam`. */
const runsChild = (task: WorkflowTask): boolean => specOf(task.type).childWorkflow === true;

/** Whether the plan or a plan below it replaces a definition. */
function carriesDefinitions(plan: TestPlan): boolean {
  return plan.workflowDef !== undefined || [...plan.children.values()].some(carriesDefinitions);
}

/** `def` with the child definitions its plan asks for inlined; `def` itself when there are none. */
export async function withChildDefinitions(
  def: WorkflowDef,
  plan: TestPlan,
  find: FindWorkflowDef,
): Promise<WorkflowDef> {
  if (!carriesDefinitions(plan)) return def;
  const subs: WorkflowTask[] = [];
  forEachTask(def.tasks, (task) => {
    const child = plan.children.get(task.taskReferenceName);
    if (runsChild(task) && child && carriesDefinitions(child)) subs.push(task);
  });
  const replaced = new Map<string, WorkflowDef>();
  for (const task of subs) {
    const child = plan.children.get(task.taskReferenceName) as TestPlan;
    const base = child.workflowDef ?? (await definedChild(task, find));
    if (base) replaced.set(task.taskReferenceName, await withChildDefinitions(base, child, find));
  }
  if (replaced.size === 0) return def;
  const tasks = mapTasks(def.tasks, (task) => {
    const childDef = runsChild(task) ? replaced.get(task.taskReferenceName) : undefined;
    return childDef
      ? { ...task, subWorkflowParam: { ...task.subWorkflowParam, workflowDefinition: childDef } }
      : task;
  });
  return { ...def, tasks };
}

/**
 * The child definition a SUB_WORKFLOW task names without the plan's help: its own inline one, or
 * the registered one when name (and version) are literals. A templated name is known only at run
 * time: such a child runs as it would (its mocks still apply; its own children keep their defs).
 */
async function definedChild(task: WorkflowTask, find: FindWorkflowDef): Promise<WorkflowDef | undefined> {
  const param = task.subWorkflowParam;
  if (isObject(param?.workflowDefinition)) {
    return validateWorkflowDef(param.workflowDefinition, { taskDefExists: () => true });
  }
  if (param?.workflowDefinition !== undefined) return undefined;
  // As SUB_WORKFLOW names its child: subWorkflowParam.name, else the task's own name.
  const name = typeof param?.name === 'string' && param.name !== '' ? param.name : task.name;
  if (name.includes('${')) return undefined;
  return find(name, typeof param?.version === 'number' ? param.version : undefined);
}
