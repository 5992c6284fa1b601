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
