/**
 * Small builders of definitions as clients send them: the least a valid definition needs, with
 * overrides for the field under test.
 */

export type Json = Record<string, unknown>;

let counter = 0;

/** A unique name per call, so tests sharing a server never collide. */
export function uniqueName(prefix = 'wf'): string {
  counter += 1;
  return `${prefix}_${Date.now().toString(36)}_${counter}`;
}

/** A SIMPLE worker task. */
export function simpleTask(ref: string, overrides: Json = {}): Json {
  return { name: `${ref}_task`, taskReferenceName: ref, type: 'SIMPLE', ...overrides };
}

/** A one-task workflow definition, version 1. */
export function workflowDef(overrides: Json = {}): Json {
  return {
    name: uniqueName('wf'),
    version: 1,
    tasks: [simpleTask('first')],
    ...overrides,
  };
}

/** A task definition with only a name; the server fills the rest. */
export function taskDef(overrides: Json = {}): Json {
  return { name: uniqueName('task'), ...overrides };
}

/** A Conductor input template `${path}`, written without a literal `${` in test sources. */
export function ref(path: string): string {
  return `\${${path}}`;
}

// Task builders for definitions under test: each the least its type needs, plus `extra`.

/** A worker task named after its reference, failing for good on its first failure (ad-hoc worker tasks retry 3 times). */
export function worker(name: string, extra: Json = {}): Json {
  return { name, taskReferenceName: name, type: 'SIMPLE', retryCount: 0, ...extra };
}

/** An INLINE task with the given input parameters (the expression among them) on the javascript evaluator. */
export function inline(name: string, inputParameters: Json): Json {
  return {
    name,
    taskReferenceName: name,
    type: 'INLINE',
    inputParameters: { evaluatorType: 'javascript', ...inputParameters },
  };
}

/** An INLINE task evaluating `expression` over `input`. */
export function script(name: string, expression: string, input: Json = {}): Json {
  return inline(name, { expression, ...input });
}

/** A FORK_JOIN running `branches` in parallel; a JOIN must follow it. */
export function fork(name: string, branches: Json[][], extra: Json = {}): Json {
  return { name, taskReferenceName: name, type: 'FORK_JOIN', forkTasks: branches, ...extra };
}

export function join(name: string, joinOn: string[]): Json {
  return { name, taskReferenceName: name, type: 'JOIN', joinOn };
}

/**
 * A workflow of a FORK_JOIN_DYNAMIC `fan` (with `fork`'s fields) and its JOIN `gather`, whose
 * output is the workflow's `joined`.
 */
export function dynamicForkFlow(name: string, fork: Json): Json {
  return {
    name,
    tasks: [
      { name: 'fan', taskReferenceName: 'fan', type: 'FORK_JOIN_DYNAMIC', ...fork },
      { name: 'gather', taskReferenceName: 'gather', type: 'JOIN' },
    ],
    outputParameters: { joined: ref('gather.output') },
  };
}

/** A FORK_JOIN_DYNAMIC's inputs forking one INLINE task `forkTaskName` per workflow.input.items item. */
export function inlineForkInputs(forkTaskName: string): Json {
  return { forkTaskType: 'INLINE', forkTaskName, forkTaskInputs: ref('workflow.input.items') };
}

/** A DO_WHILE named `loop`, the name its loopCondition reads as `$.loop`. */
export function loop(loopOver: Json[], loopCondition: string, extra: Json = {}): Json {
  return { name: 'loop', taskReferenceName: 'loop', type: 'DO_WHILE', loopCondition, loopOver, ...extra };
}

/** A TERMINATE named `stop`. */
export function terminate(inputParameters: Json): Json {
  return { name: 'stop', taskReferenceName: 'stop', type: 'TERMINATE', inputParameters };
}
