// Editing definitions through forms without a browser: schema references and what the pickers flag,
// the task operations of the workflow editor (nested tasks found by path), and inline task definitions.
import { describe, expect, it } from 'vitest';
import type { TaskDef } from '../../../ui/src/api/routes.ts';
import {
  describePolicy,
  policyDifferences,
  withRegisteredPolicy,
} from '../../../ui/src/logic/inline-task-def.ts';
import { refOf, registryOf, unregistered, withRef } from '../../../ui/src/logic/schema-ref.ts';
import {
  addBranch,
  addTaskTo,
  ancestry,
  freshRef,
  moveTaskAt,
  newWorkflowDef,
  pathOfRef,
  removeBranch,
  removeTaskAt,
  replaceTaskAt,
  syncJoins,
  type Task,
  taskAt,
  withEnforceSchema,
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
  const simple = (ref: string): Task => ({
    name: `${ref}_task`,
    taskReferenceName: ref,
    type: 'SIMPLE',
    inputParameters: {},
    optional: false,
    startDelay: 0,
    asyncComplete: false,
  });
  const refs = (tasks: Task[] | undefined) => (tasks ?? []).map((t) => t.taskReferenceName);

  it('gives new tasks reference names not used anywhere in the definition, nested ones included', () => {
    const nested = addTaskTo(def, ['tasks'], 'FORK_JOIN').def;
    expect(refs(nested.tasks)).toEqual(['fork_join_1', 'join_1']);
    expect(nested.tasks[0]?.forkTasks?.map(refs)).toEqual([['simple_1'], ['simple_2']]);
    expect(nested.tasks[1]?.joinOn).toEqual(['simple_1', 'simple_2']);
    expect(freshRef(nested, 'simple')).toBe('simple_3');
    const added = addTaskTo(nested, ['tasks'], 'YIELD');
    expect(added.path).toEqual(['tasks', 2]);
    expect(taskAt(added.def, added.path)).toMatchObject({ type: 'YIELD', taskReferenceName: 'yield_1' });
  });

  it('adds, replaces, moves and removes tasks inside branches, cases and loops, without touching the original', () => {
    const flow = {
      ...def,
      tasks: [
        {
          ...simple('pick'),
          type: 'SWITCH',
          decisionCases: { a: [simple('a1'), simple('a2')] },
          defaultCase: [],
        },
        { ...simple('loop'), type: 'DO_WHILE', loopOver: [simple('body')] },
      ],
    };
    const inCase = addTaskTo(flow, ['tasks', 0, 'decisionCases', 'a'], 'SIMPLE');
    expect(inCase.path).toEqual(['tasks', 0, 'decisionCases', 'a', 2]);
    expect(refs(inCase.def.tasks[0]?.decisionCases?.a)).toEqual(['a1', 'a2', 'simple_1']);
    const moved = moveTaskAt(inCase.def, ['tasks', 0, 'decisionCases', 'a', 2], -1);
    expect(refs(moved.tasks[0]?.decisionCases?.a)).toEqual(['a1', 'simple_1', 'a2']);
    const renamed = replaceTaskAt(flow, ['tasks', 1, 'loopOver', 0], simple('renamed'));
    expect(refs(renamed.tasks[1]?.loopOver)).toEqual(['renamed']);
    expect(
      refs(removeTaskAt(flow, ['tasks', 0, 'decisionCases', 'a', 0]).tasks[0]?.decisionCases?.a),
    ).toEqual(['a2']);
    expect(refs(flow.tasks[0]?.decisionCases?.a)).toEqual(['a1', 'a2']);
    expect(pathOfRef(flow, 'body')).toEqual(['tasks', 1, 'loopOver', 0]);
    expect(ancestry(flow, ['tasks', 1, 'loopOver', 0]).map((s) => s.task.taskReferenceName)).toEqual([
      'loop',
      'body',
    ]);
    const withCase = addBranch(flow, ['tasks', 0], 'b');
    expect(Object.keys(withCase.tasks[0]?.decisionCases ?? {})).toEqual(['a', 'b']);
    expect(addBranch(flow, ['tasks', 0], 'a')).toBe(flow);
    expect(
      Object.keys(removeBranch(withCase, ['tasks', 0, 'decisionCases', 'a']).tasks[0]?.decisionCases ?? {}),
    ).toEqual(['b']);
  });

  it('removes a fork with its join, and keeps the join waiting for the last task of every branch', () => {
    const forked = addTaskTo(def, ['tasks'], 'FORK_JOIN').def;
    const grown = addTaskTo(forked, ['tasks', 0, 'forkTasks', 0], 'SIMPLE').def;
    expect(syncJoins(forked, grown).tasks[1]?.joinOn).toEqual(['simple_3', 'simple_2']);
    const handSet = replaceTaskAt(forked, ['tasks', 1], {
      ...(forked.tasks[1] as Task),
      joinOn: ['simple_1'],
    });
    const grownToo = addTaskTo(handSet, ['tasks', 0, 'forkTasks', 0], 'SIMPLE').def;
    expect(syncJoins(handSet, grownToo).tasks[1]?.joinOn).toEqual(['simple_1']);
    expect(removeTaskAt(forked, ['tasks', 0]).tasks).toEqual([]);
  });
});

describe('inline task definitions', () => {
  const registered: TaskDef = {
    name: 'charge',
    retryCount: 0,
    retryLogic: 'FIXED',
    retryDelaySeconds: 5,
    backoffScaleFactor: 1,
    timeoutSeconds: 300,
    timeoutPolicy: 'TIME_OUT_WF',
    responseTimeoutSeconds: 120,
    createTime: 1,
    updateTime: 2,
  };
  const task: Task = {
    name: 'charge',
    taskReferenceName: 'charge',
    type: 'SIMPLE',
    inputParameters: {},
    optional: false,
    startDelay: 0,
    asyncComplete: false,
  };

  it('starts a task schema from the registered definition, so its policy stays', () => {
    const attached = withTaskSchema(task, 'inputSchema', { name: 'card' }, registered);
    const { createTime: _c, updateTime: _u, ...policy } = registered;
    expect(attached.taskDefinition).toEqual({ ...policy, inputSchema: { name: 'card' } });
    expect(policyDifferences(attached.taskDefinition as TaskDef, registered)).toEqual([]);
    // Cleared again, the copy holds nothing of its own and goes.
    expect('taskDefinition' in withTaskSchema(attached, 'inputSchema', undefined, registered)).toBe(false);
    expect(withEnforceSchema(attached, true, registered).taskDefinition?.enforceSchema).toBe(true);
  });

  it('starts from the policy an unregistered task runs with: a worker task the defaults, others no retries', () => {
    expect(withTaskSchema(task, 'outputSchema', { name: 'r' }, undefined).taskDefinition).toEqual({
      name: 'charge',
      outputSchema: { name: 'r' },
    });
    const yielding = { ...task, type: 'YIELD' };
    expect(withTaskSchema(yielding, 'outputSchema', { name: 'r' }, undefined).taskDefinition).toEqual({
      name: 'charge',
      retryCount: 0,
      outputSchema: { name: 'r' },
    });
    expect('taskDefinition' in withTaskSchema(task, 'outputSchema', undefined, undefined)).toBe(false);
  });

  it('says where an inline definition differs from the registered one, reading left-out fields as the server fills them', () => {
    const legacy = { name: 'charge', inputSchema: { name: 'card' } } as unknown as TaskDef;
    expect(policyDifferences(legacy, registered).map((d) => [d.field, d.inline, d.registered])).toEqual([
      ['retryCount', 3, 0],
      ['retryDelaySeconds', 60, 5],
      ['timeoutSeconds', 0, 300],
      ['responseTimeoutSeconds', 3600, 120],
    ]);
    const fixed = withRegisteredPolicy(legacy, registered);
    expect(policyDifferences(fixed, registered)).toEqual([]);
    expect(fixed.inputSchema).toEqual({ name: 'card' });
    expect(describePolicy(registered)).toBe(
      'no retries; timeout 300 s (TIME_OUT_WF); response timeout 120 s',
    );
    expect(describePolicy(legacy)).toBe('3 retries (FIXED, 60 s apart); no timeout; response timeout 3600 s');
  });
});
