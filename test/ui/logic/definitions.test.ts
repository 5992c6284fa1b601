// Editing definitions through forms without a browser: schema references and what the pickers flag,
// and the task list operations the workflow editor uses.
import { describe, expect, it } from 'vitest';
import { refOf, registryOf, unregistered, withRef } from '../../../ui/src/logic/schema-ref.ts';
import {
  freshRef,
  moveTask,
  newTask,
  newWorkflowDef,
  removeTask,
  replaceTask,
  withTaskSchema,
} from '../../../ui/src/logic/workflow-def.ts';

describe('schema references', () => {
  const registry = registryOf([
    { name: 'b', version: 1 },
    { name: 'a', version: 1 },
    { name: 'a', version: 3 },
  ]);

  it('reads the registry as names (sorted) with their versions highest first', () => {
    expect([...registry.entries()]).toEqual([
      ['a', [3, 1]],
      ['b', [1]],
    ]);
  });

  it('flags a name the registry lacks, and a version it lacks, but not latest of a known name', () => {
    expect(unregistered(registry, { name: 'zzz' })).toBe('Schema zzz is not registered');
    expect(unregistered(registry, { name: 'a', version: 2 })).toBe('Schema a has no version 2');
    expect(unregistered(registry, { name: 'a' })).toBeUndefined();
    expect(unregistered(registry, { name: 'a', version: 3 })).toBeUndefined();
    expect(unregistered(registry, undefined)).toBeUndefined();
  });

  it('reads a reference leniently and writes it without an empty version', () => {
    expect(refOf({ inputSchema: { name: 'a', version: 0 } }, 'inputSchema')).toEqual({ name: 'a' });
    expect(refOf({ inputSchema: 'a' }, 'inputSchema')).toBeUndefined();
    expect(withRef({ x: 1 }, 'outputSchema', { name: 'a', version: 2 })).toEqual({
      x: 1,
      outputSchema: { name: 'a', version: 2 },
    });
    expect(withRef({ x: 1, outputSchema: { name: 'a' } }, 'outputSchema', undefined)).toEqual({ x: 1 });
  });
});

describe('workflow definition edits', () => {
  const def = { ...newWorkflowDef(), name: 'w' };
  const one = { ...def, tasks: [newTask(def, 'SIMPLE')] };

  it('gives new tasks reference names not used anywhere in the definition, nested ones included', () => {
    const nested = {
      ...def,
      tasks: [
        {
          ...newTask(def, 'SIMPLE'),
          type: 'FORK_JOIN',
          forkTasks: [[{ ...newTask(def, 'SIMPLE'), taskReferenceName: 'simple_2' }]],
        },
      ],
    };
    expect(freshRef(nested, 'simple')).toBe('simple_3');
    expect(newTask(def, 'YIELD')).toMatchObject({
      type: 'YIELD',
      taskReferenceName: 'yield_1',
      name: 'yield_1',
    });
  });

  it('replaces, moves and removes tasks without touching the original', () => {
    const two = { ...one, tasks: [...one.tasks, newTask(one, 'YIELD')] };
    expect(moveTask(two, 1, -1).tasks.map((t) => t.type)).toEqual(['YIELD', 'SIMPLE']);
    expect(moveTask(two, 0, -1)).toBe(two);
    expect(removeTask(two, 0).tasks.map((t) => t.type)).toEqual(['YIELD']);
    const renamed = replaceTask(two, 0, { ...(two.tasks[0] as (typeof two.tasks)[number]), name: 'renamed' });
    expect(renamed.tasks[0]?.name).toBe('renamed');
    expect(two.tasks[0]?.name).toBe('simple_1_task');
  });

  it('keeps task schemas on the inline task definition, and adds none to a task that had none when clearing', () => {
    const task = one.tasks[0] as (typeof one.tasks)[number];
    const withSchema = withTaskSchema(task, 'inputSchema', { name: 'a' });
    expect(withSchema.taskDefinition).toEqual({ name: 'simple_1_task', inputSchema: { name: 'a' } });
    expect(withTaskSchema(withSchema, 'inputSchema', undefined).taskDefinition).toEqual({
      name: 'simple_1_task',
    });
    expect('taskDefinition' in withTaskSchema(task, 'outputSchema', undefined)).toBe(false);
  });
});
