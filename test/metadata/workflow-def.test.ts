/**
 * Workflow definition validation and defaults (lib/metadata/workflow-def.ts), without HTTP:
 * JSON paths of nested problems, every problem reported at once, input references, and the
 * defaults filled on the way in.
 */
import { describe, expect, it } from 'vitest';
import {
  INVALID_WORKFLOW,
  normalizeWorkflowDef,
  validateWorkflowDef,
  type WorkflowDefContext,
} from '../../lib/metadata/workflow-def.ts';
import { type FieldError, ValidationError } from '../../lib/model/errors.ts';
import { type Json, ref, simpleTask, workflowDef } from '../helpers/fixtures.ts';

const noTaskDefs: WorkflowDefContext = { taskDefExists: () => false };

/** The validation errors of a definition that must be rejected. */
function problemsOf(body: unknown, ctx: WorkflowDefContext = noTaskDefs): FieldError[] {
  try {
    validateWorkflowDef(body, ctx);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message.startsWith(INVALID_WORKFLOW)).toBe(true);
    return (error as ValidationError).validationErrors;
  }
  throw new Error('expected the definition to be rejected');
}

const pathsOf = (body: unknown, ctx?: WorkflowDefContext) => problemsOf(body, ctx).map((p) => p.path);

describe('validateWorkflowDef', () => {
  it('accepts a minimal definition', () => {
    expect(validateWorkflowDef(workflowDef({ name: 'minimal' }), noTaskDefs).name).toBe('minimal');
  });

  it('rejects a body that is not an object', () => {
    expect(pathsOf([workflowDef()])).toEqual(['body']);
    expect(pathsOf('text')).toEqual(['body']);
  });

  it('reports every problem of a definition at once', () => {
    const paths = pathsOf({
      name: ' ',
      version: 0,
      timeoutPolicy: 'SOMETIMES',
      tasks: [{ name: 'a' }, { taskReferenceName: 'b' }],
    });
    expect(paths).toEqual(
      expect.arrayContaining([
        'name',
        'version',
        'timeoutPolicy',
        'tasks[0].taskReferenceName',
        'tasks[1].name',
      ]),
    );
    expect(paths).toHaveLength(5);
  });

  it('names nested problems by their full path', () => {
    const paths = pathsOf(
      workflowDef({
        tasks: [
          {
            name: 'switch',
            taskReferenceName: 'switch',
            type: 'SWITCH',
            evaluatorType: 'value-param',
            expression: 'x',
            decisionCases: { yes: [{ name: 'no_ref' }] },
            defaultCase: [{ taskReferenceName: 'no_name' }],
          },
          { name: 'fork', taskReferenceName: 'fork', type: 'FORK_JOIN', forkTasks: [[], [{ name: 'x' }]] },
          { name: 'loop', taskReferenceName: 'loop', type: 'DO_WHILE', loopCondition: 'x', loopOver: [7] },
        ],
      }),
    );
    expect([...paths].sort()).toEqual([
      'tasks[0].decisionCases.yes[0].taskReferenceName',
      'tasks[0].defaultCase[0].name',
      'tasks[1].forkTasks[1][0].taskReferenceName',
      'tasks[2].loopOver[0]',
    ]);
  });

  it('rejects nested task lists of the wrong shape', () => {
    const paths = pathsOf(
      workflowDef({
        tasks: [
          { name: 's', taskReferenceName: 's', type: 'FORK_JOIN', forkTasks: {} },
          { name: 'd', taskReferenceName: 'd', decisionCases: { a: 'not a list' } },
          { name: 'e', taskReferenceName: 'e', decisionCases: [] },
        ],
      }),
    );
    expect(paths).toEqual(
      expect.arrayContaining(['tasks[0].forkTasks', 'tasks[1].decisionCases.a', 'tasks[2].decisionCases']),
    );
  });

  it('rejects a reference name used in two different branches', () => {
    const problems = problemsOf(
      workflowDef({
        tasks: [
          {
            name: 'switch',
            taskReferenceName: 'switch',
            type: 'SWITCH',
            evaluatorType: 'value-param',
            expression: 'x',
            decisionCases: { a: [simpleTask('same')] },
            defaultCase: [simpleTask('same')],
          },
        ],
      }),
    );
    expect(problems).toEqual([
      expect.objectContaining({
        path: 'tasks',
        invalidValue: 'same',
        message: expect.stringMatching(/unique/),
      }),
    ]);
  });

  it.each([
    ['the workflow', ref('workflow.input.a')],
    ['a task nested in a branch', ref('inner.output.result')],
    ['a JSONPath root', ref('$.input')],
    ['the task-id placeholder', ref('CPEWF_TASK_ID')],
    ['a reference embedded in text', `prefix ${ref('workflow.workflowId')} suffix`],
    ['an escaped template', `$${ref('notARef.output')}`],
  ])('accepts an input reference to %s', (_what, value) => {
    const def = workflowDef({
      tasks: [
        {
          name: 'loop',
          taskReferenceName: 'loop',
          type: 'DO_WHILE',
          loopCondition: 'false',
          loopOver: [simpleTask('inner')],
        },
        simpleTask('reader', { inputParameters: { deep: { list: [value] } } }),
      ],
    });
    expect(() => validateWorkflowDef(def, noTaskDefs)).not.toThrow();
  });

  it('rejects an unknown reference deep inside the input of a top-level task', () => {
    const problems = problemsOf(
      workflowDef({ tasks: [simpleTask('a', { inputParameters: { x: { y: [ref('ghost.output')] } } })] }),
    );
    expect(problems).toEqual([
      expect.objectContaining({ path: 'tasks[0].inputParameters', invalidValue: 'ghost' }),
    ]);
  });

  it('accepts a user-defined task type when its task definition is registered or given inline', () => {
    const custom = { name: 'custom', taskReferenceName: 'c', type: 'CUSTOM' };
    expect(pathsOf(workflowDef({ tasks: [custom] }))).toEqual(['tasks[0].type']);
    const registered: WorkflowDefContext = { taskDefExists: (name) => name === 'custom' };
    expect(() => validateWorkflowDef(workflowDef({ tasks: [custom] }), registered)).not.toThrow();
    const inline = { ...custom, taskDefinition: { name: 'custom' } };
    expect(() => validateWorkflowDef(workflowDef({ tasks: [inline] }), noTaskDefs)).not.toThrow();
  });

  it('checks an inline task definition with the task definition rules', () => {
    const task = simpleTask('a', { taskDefinition: { name: 'a', retryCount: -2 } });
    expect(pathsOf(workflowDef({ tasks: [task] }))).toEqual(['tasks[0].taskDefinition.retryCount']);
  });

  it('prefixes every path when validating an item of a list', () => {
    expect(() => validateWorkflowDef(workflowDef({ version: 'x' }), noTaskDefs, '[3].')).toThrow(
      expect.objectContaining({ validationErrors: [expect.objectContaining({ path: '[3].version' })] }),
    );
  });
});

describe('normalizeWorkflowDef', () => {
  it('fills Conductor defaults on the definition and on nested tasks', () => {
    const def = normalizeWorkflowDef({
      name: '  padded  ',
      tasks: [
        {
          name: 'fork',
          taskReferenceName: 'fork',
          type: 'FORK_JOIN',
          forkTasks: [[{ name: 'leaf', taskReferenceName: 'leaf' }]],
        },
      ],
    });
    expect(def).toMatchObject({
      name: 'padded',
      version: 1,
      schemaVersion: 2,
      restartable: true,
      workflowStatusListenerEnabled: false,
      timeoutPolicy: 'ALERT_ONLY',
      timeoutSeconds: 0,
      inputParameters: [],
      outputParameters: {},
      variables: {},
      inputTemplate: {},
    });
    expect(def.tasks[0]?.forkTasks?.[0]?.[0]).toEqual({
      name: 'leaf',
      taskReferenceName: 'leaf',
      type: 'SIMPLE',
      inputParameters: {},
      optional: false,
      startDelay: 0,
      asyncComplete: false,
    });
  });

  it('drops audit fields a client sends, so only the server sets them', () => {
    const def = normalizeWorkflowDef({
      ...workflowDef(),
      createTime: 1,
      updateTime: 2,
      createdBy: 'me',
      updatedBy: 'me',
    } as Json);
    expect(def).not.toHaveProperty('createTime');
    expect(def).not.toHaveProperty('updateTime');
    expect(def).not.toHaveProperty('createdBy');
    expect(def).not.toHaveProperty('updatedBy');
  });

  it('keeps fields it does not know, so editors round-trip them', () => {
    const def = normalizeWorkflowDef({ ...workflowDef(), ownerApp: 'billing', customField: { a: 1 } });
    expect(def).toMatchObject({ ownerApp: 'billing', customField: { a: 1 } });
  });

  it('keeps an explicit restartable false and a TIME_OUT_WF policy', () => {
    const def = normalizeWorkflowDef({ ...workflowDef(), restartable: false, timeoutPolicy: 'TIME_OUT_WF' });
    expect(def).toMatchObject({ restartable: false, timeoutPolicy: 'TIME_OUT_WF' });
  });
});
