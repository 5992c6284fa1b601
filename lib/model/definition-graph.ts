/**
 * Navigation over a workflow definition: where each reference name sits (its list, position and
 * enclosing SWITCH / FORK_JOIN / DO_WHILE), and which task follows it (docs/conductor-compat.md §4.2
 * "Next-task rules"). Built once per definition snapshot and cached. Which fields hold child lists,
 * and how the flow leaves them, is each type's spec (task-types/); nothing here names a type.
 */
import type { WorkflowDef, WorkflowTask } from './definitions.ts';
import { childListsOf, specOf } from './task-types/index.ts';

export interface GraphNode {
  task: WorkflowTask;
  list: WorkflowTask[];
  index: number;
  /** The enclosing container task, if any. */
  container?: WorkflowTask;
  /** A task a dynamic fork made (or one inside it), placed in a run's graph: not the definition's. */
  placed?: true;
}

export class DefinitionGraph {
  private readonly nodes = new Map<string, GraphNode>();

  /**
   * The definition's graph, plus `placed`: containers a dynamic fork made (SWITCH, DO_WHILE...
   * branches), each alone in its own list, so the flow inside them finds its way as in the
   * definition's own (what follows a case's task, where a loop body ends).
   */
  constructor(
    readonly def: WorkflowDef,
    placed: readonly WorkflowTask[] = [],
  ) {
    this.index(def.tasks, undefined);
    for (const task of placed) this.place(task);
  }

  /**
   * Places a container a dynamic fork made, and everything inside it. Only on a graph of one
   * run's own (a RunContext's), never on the shared one graphOf answers.
   */
  place(task: WorkflowTask): void {
    if (!this.nodes.has(task.taskReferenceName)) this.index([task], undefined, true);
  }

  node(ref: string): GraphNode | undefined {
    return this.nodes.get(baseRef(ref));
  }

  /** Whether the reference is a task of the definition itself (not one a dynamic fork made). */
  defines(ref: string): boolean {
    const node = this.nodes.get(baseRef(ref));
    return node !== undefined && node.placed === undefined;
  }

  task(ref: string): WorkflowTask | undefined {
    return this.nodes.get(baseRef(ref))?.task;
  }

  /** The enclosing DO_WHILE of a reference, if any (nearest). */
  enclosingLoop(ref: string): WorkflowTask | undefined {
    let node = this.node(ref);
    while (node?.container) {
      if (specOf(node.container.type).loop) return node.container;
      node = this.node(node.container.taskReferenceName);
    }
    return undefined;
  }

  /**
   * The task that follows `ref` once it is done: the next in its list; at the end of a SWITCH
   * branch, whatever follows the SWITCH; at the end of a fork branch or a loop body, nothing (the
   * JOIN and the DO_WHILE re-evaluate themselves); at the end of the workflow, nothing.
   */
  next(ref: string): WorkflowTask | undefined {
    const node = this.node(ref);
    if (!node) return undefined;
    if (specOf(node.task.type).endsFlow) return undefined;
    const following = node.list[node.index + 1];
    if (following) return following;
    const container = node.container;
    if (!container) return undefined;
    if (specOf(container.type).afterChildren === 'continue') return this.next(container.taskReferenceName);
    return undefined;
  }

  /** Every reference inside a container (nested ones included). */
  descendants(container: WorkflowTask): WorkflowTask[] {
    const out: WorkflowTask[] = [];
    const visit = (tasks: WorkflowTask[] | undefined) => {
      for (const task of tasks ?? []) {
        out.push(task);
        for (const branch of childLists(task)) visit(branch);
      }
    };
    for (const branch of childLists(container)) visit(branch);
    return out;
  }

  private index(tasks: WorkflowTask[], container: WorkflowTask | undefined, placed?: true): void {
    tasks.forEach((task, index) => {
      const node: GraphNode = { task, list: tasks, index, container };
      if (placed) node.placed = true;
      this.nodes.set(task.taskReferenceName, node);
      for (const branch of childLists(task)) this.index(branch, task, placed);
    });
  }
}

/** The child task lists of a workflow task, through its type's spec. */
export function childLists(task: WorkflowTask): WorkflowTask[][] {
  return childListsOf(specOf(task.type), task);
}

/** Visits every task of a list, nested ones included, parents before their children. */
export function forEachTask(tasks: readonly WorkflowTask[], visit: (task: WorkflowTask) => void): void {
  for (const task of tasks) {
    visit(task);
    for (const list of childLists(task)) forEachTask(list, visit);
  }
}

/**
 * Rebuilds a task list with `change` applied to every task, nested ones included: `change` gets a
 * task whose child lists are already rebuilt and returns its replacement.
 */
export function mapTasks(
  tasks: readonly WorkflowTask[],
  change: (task: WorkflowTask) => WorkflowTask,
): WorkflowTask[] {
  return tasks.map((task) => {
    const spec = specOf(task.type);
    const copy: WorkflowTask = { ...task };
    for (const field of spec.children ?? []) {
      const value = task[field.name];
      if (value === undefined || value === null) continue;
      if (field.shape === 'list')
        (copy as Record<string, unknown>)[field.name] = mapTasks(value as WorkflowTask[], change);
      else if (field.shape === 'lists')
        (copy as Record<string, unknown>)[field.name] = (value as WorkflowTask[][]).map((list) =>
          mapTasks(list, change),
        );
      else
        (copy as Record<string, unknown>)[field.name] = Object.fromEntries(
          Object.entries(value as Record<string, WorkflowTask[]>).map(([k, list]) => [
            k,
            mapTasks(list, change),
          ]),
        );
    }
    return change(copy);
  });
}

/**
 * Loop iterations number their tasks: `fetch__3` is `fetch` in iteration 3. A loop nested in a
 * loop numbers its iterations after its own: iteration 1 of the inner loop that runs in outer
 * iteration 2 is 2 * NESTED_ITERATION_STRIDE + 1, and its tasks are named `fetch__2__1`.
 */
export const NESTED_ITERATION_STRIDE = 1_000_000;

/** `fetch__3` -> `fetch`, `fetch__2__1` -> `fetch`. */
export function baseRef(ref: string): string {
  const match = /^(.+?)(?:__\d+)+$/.exec(ref);
  return match?.[1] ?? ref;
}

export function iterationRef(base: string, iteration: number): string {
  return iteration > 0 ? `${base}__${iterationLabel(iteration)}` : base;
}

function iterationLabel(iteration: number): string {
  if (iteration < NESTED_ITERATION_STRIDE) return String(iteration);
  const outer = Math.floor(iteration / NESTED_ITERATION_STRIDE);
  return `${iterationLabel(outer)}__${iteration % NESTED_ITERATION_STRIDE}`;
}

/**
 * Whether a task numbered `iteration` runs within the loop iteration numbered `scope` (its own, or
 * one of a loop nested in it); any iteration runs within scope 0, outside every loop.
 */
export function runsWithin(iteration: number, scope: number): boolean {
  if (scope === 0) return true;
  let n = iteration;
  while (n !== scope && n >= NESTED_ITERATION_STRIDE) n = Math.floor(n / NESTED_ITERATION_STRIDE);
  return n === scope;
}

/** Where the iteration numbers of a loop start: 0 at top level, after its own inside a loop. */
export function loopIterationBase(loopIteration: number): number {
  return loopIteration > 0 ? loopIteration * NESTED_ITERATION_STRIDE : 0;
}

/**
 * Which iteration of the loop whose numbers start at `base` a task numbered `iteration` runs in
 * (nested loops' tasks count in the outer iteration they run under); 0 when in none of them.
 */
export function iterationWithin(iteration: number, base: number): number {
  let n = iteration;
  while (n >= base + NESTED_ITERATION_STRIDE) n = Math.floor(n / NESTED_ITERATION_STRIDE);
  return n > base ? n - base : 0;
}

const cache = new WeakMap<WorkflowDef, DefinitionGraph>();

export function graphOf(def: WorkflowDef): DefinitionGraph {
  let graph = cache.get(def);
  if (!graph) {
    graph = new DefinitionGraph(def);
    cache.set(def, graph);
  }
  return graph;
}
