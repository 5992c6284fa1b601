/**
 * The task-type specs (lib/model/task-types/) are the one list of types: the known names and the
 * registration rules are derived from them, and the engine implements every type a spec says this
 * service supports.
 */
import { describe, expect, it } from 'vitest';
import type { ScriptEvaluator } from '../../lib/engine/script/evaluator.ts';
import { defaultRegistry } from '../../lib/engine/tasks/index.ts';
import { TASK_TYPE_RULES } from '../../lib/metadata/task-type-rules.ts';
import { ManualClock } from '../../lib/model/clock.ts';
import { childLists, forEachTask, mapTasks } from '../../lib/model/definition-graph.ts';
import type { WorkflowTask } from '../../lib/model/definitions.ts';
import { KNOWN_TASK_TYPES, specOf, TASK_TYPE_SPECS } from '../../lib/model/task-types/index.ts';

const noScripts: ScriptEvaluator = {
  evaluate: () => Promise.reject(new Error('no scripts in these tests')),
  close: () => Promise.resolve(),
};

const task = (ref: string, type = 'SIMPLE', extra: Partial<WorkflowTask> = {}): WorkflowTask => ({
  name: ref,
  taskReferenceName: ref,
  type,
  inputParameters: {},
  optional: false,
  startDelay: 0,
  asyncComplete: false,
  ...extra,
});

describe('task type specs', () => {
  it('name each type once', () => {
    expect(new Set(KNOWN_TASK_TYPES).size).toBe(TASK_TYPE_SPECS.length);
  });

  it('know the Conductor system types this service does not run, the AI types included', () => {
    for (const type of ['KAFKA_PUBLISH', 'LLM_CHAT_COMPLETE']) {
      expect(KNOWN_TASK_TYPES).toContain(type);
      expect(specOf(type).supported).toBe(false);
    }
  });

  it('treat any other type name as a worker type', () => {
    expect(specOf('my_worker_type')).toMatchObject({ kind: 'worker', supported: true });
  });

  it('have an engine module for every supported type that is not a worker type', () => {
    const registry = defaultRegistry({ scripts: noScripts, clock: new ManualClock() });
    const missing = TASK_TYPE_SPECS.filter(
      (s) => s.supported && s.kind !== 'worker' && !registry.has(s.type),
    );
    expect(missing.map((s) => s.type)).toEqual([]);
    for (const spec of TASK_TYPE_SPECS) expect(registry.get(spec.type).kind).toBe(spec.kind);
  });

  it('say which types run a child workflow: exactly those whose engine module follows its end', () => {
    const registry = defaultRegistry({ scripts: noScripts, clock: new ManualClock() });
    const declared = TASK_TYPE_SPECS.filter((s) => s.childWorkflow).map((s) => s.type);
    const following = TASK_TYPE_SPECS.filter((s) => registry.get(s.type).onChildEnded).map((s) => s.type);
    expect(declared).toEqual(following);
    expect(declared).toEqual(['SUB_WORKFLOW']);
  });

  it('are where the registration rules come from', () => {
    const withRules = TASK_TYPE_SPECS.filter((s) => s.validate).map((s) => s.type);
    expect(Object.keys(TASK_TYPE_RULES).sort()).toEqual(withRules.sort());
  });
});

describe('definition graph walks', () => {
  const tree = [
    task('a'),
    task('sw', 'SWITCH', { decisionCases: { x: [task('x1')] }, defaultCase: [task('d1')] }),
    task('fork', 'FORK_JOIN', {
      forkTasks: [[task('f1')], [task('f2', 'DO_WHILE', { loopOver: [task('l1')] })]],
    }),
  ];

  it('visit every task through the child lists its type declares, parents first', () => {
    const seen: string[] = [];
    forEachTask(tree, (t) => seen.push(t.taskReferenceName));
    expect(seen).toEqual(['a', 'sw', 'x1', 'd1', 'fork', 'f1', 'f2', 'l1']);
  });

  it('ignore child-list fields a type does not declare', () => {
    expect(childLists(task('s', 'SIMPLE', { loopOver: [task('hidden')] }))).toEqual([]);
  });

  it('rebuild every task, nested ones included, without changing the input', () => {
    const renamed = mapTasks(tree, (t) => ({ ...t, name: `${t.name}!` }));
    const names: string[] = [];
    forEachTask(renamed, (t) => names.push(t.name));
    expect(names).toEqual(['a!', 'sw!', 'x1!', 'd1!', 'fork!', 'f1!', 'f2!', 'l1!']);
    expect(tree[0]?.name).toBe('a');
  });
});
