/**
 * Per-type registration checks (lib/metadata/task-type-rules.ts; Conductor's
 * WorkflowTaskTypeConstraint, docs/conductor-compat.md §0.3).
 */
import { describe, expect, it } from 'vitest';
import { TASK_TYPE_RULES } from '../../lib/metadata/task-type-rules.ts';
import { Issues } from '../../lib/validation/issues.ts';
import { type Json, ref, simpleTask } from '../helpers/fixtures.ts';

/** The paths of the problems the rule of `task.type` finds. */
function problems(task: Json): string[] {
  const rule = TASK_TYPE_RULES[String(task.type)];
  if (!rule) throw new Error(`no rule for ${String(task.type)}`);
  const issues = new Issues();
  rule({ name: 'n', taskReferenceName: 'r', ...task }, '', issues);
  return issues.list.map((i) => i.path);
}

const branch = [simpleTask('b')];

describe('task type rules', () => {
  it.each<[string, Json, string[]]>([
    ['EVENT without sink', { type: 'EVENT' }, ['sink']],
    ['EVENT with sink', { type: 'EVENT', sink: 'sqs:queue' }, []],
    ['DECISION without a case parameter or cases', { type: 'DECISION' }, ['caseValueParam', 'decisionCases']],
    [
      'DECISION with caseExpression',
      { type: 'DECISION', caseExpression: 'x', decisionCases: { a: branch } },
      [],
    ],
    ['SWITCH with nothing', { type: 'SWITCH' }, ['evaluatorType', 'expression', 'decisionCases']],
    [
      'SWITCH with an unknown evaluator',
      { type: 'SWITCH', evaluatorType: 'python', expression: 'x', decisionCases: { a: branch } },
      ['evaluatorType'],
    ],
    [
      'SWITCH with a javascript expression',
      { type: 'SWITCH', evaluatorType: 'javascript', expression: '$.x > 1', decisionCases: { a: branch } },
      [],
    ],
    [
      'SWITCH with empty decisionCases',
      { type: 'SWITCH', evaluatorType: 'value-param', expression: 'x', decisionCases: {} },
      ['decisionCases'],
    ],
    ['DYNAMIC without dynamicTaskNameParam', { type: 'DYNAMIC' }, ['dynamicTaskNameParam']],
    ['FORK_JOIN_DYNAMIC with nothing', { type: 'FORK_JOIN_DYNAMIC' }, ['dynamicForkTasksParam']],
    [
      'FORK_JOIN_DYNAMIC with forkTaskInputs',
      { type: 'FORK_JOIN_DYNAMIC', inputParameters: { forkTaskInputs: ref('workflow.input.items') } },
      [],
    ],
    [
      'FORK_JOIN_DYNAMIC with the two params',
      { type: 'FORK_JOIN_DYNAMIC', dynamicForkTasksParam: 'tasks', dynamicForkTasksInputParamName: 'inputs' },
      [],
    ],
    [
      'FORK_JOIN_DYNAMIC with only one of the two params',
      { type: 'FORK_JOIN_DYNAMIC', dynamicForkTasksParam: 'tasks' },
      ['dynamicForkTasksParam'],
    ],
    [
      'FORK_JOIN_DYNAMIC mixing the legacy param with the new ones',
      { type: 'FORK_JOIN_DYNAMIC', dynamicForkJoinTasksParam: 'legacy', dynamicForkTasksParam: 'tasks' },
      ['dynamicForkJoinTasksParam'],
    ],
    ['HTTP without a request', { type: 'HTTP' }, ['inputParameters.http_request']],
    ['HTTP with a top-level uri', { type: 'HTTP', inputParameters: { uri: 'http://x', method: 'GET' } }, []],
    [
      'HTTP with the request in the inline task definition',
      { type: 'HTTP', taskDefinition: { name: 'h', inputTemplate: { http_request: { uri: 'http://x' } } } },
      [],
    ],
    ['FORK_JOIN with empty forkTasks', { type: 'FORK_JOIN', forkTasks: [] }, ['forkTasks']],
    ['FORK_JOIN without forkTasks', { type: 'FORK_JOIN' }, []],
    [
      'TERMINATE that is optional',
      { type: 'TERMINATE', optional: true, inputParameters: { terminationStatus: 'FAILED' } },
      ['optional'],
    ],
    ['TERMINATE without a status', { type: 'TERMINATE' }, ['inputParameters.terminationStatus']],
    [
      'TERMINATE with a templated status',
      { type: 'TERMINATE', inputParameters: { terminationStatus: ref('workflow.input.s') } },
      ['inputParameters.terminationStatus'],
    ],
    [
      'TERMINATE with TERMINATED',
      { type: 'TERMINATE', inputParameters: { terminationStatus: 'TERMINATED' } },
      [],
    ],
    ['KAFKA_PUBLISH without a request', { type: 'KAFKA_PUBLISH' }, ['inputParameters.kafka_request']],
    ['DO_WHILE with nothing', { type: 'DO_WHILE' }, ['loopCondition', 'loopOver']],
    ['DO_WHILE with an empty loopOver', { type: 'DO_WHILE', loopCondition: 'x', loopOver: [] }, ['loopOver']],
    [
      'SUB_WORKFLOW without a name',
      { type: 'SUB_WORKFLOW', subWorkflowParam: { version: 1 } },
      ['subWorkflowParam.name'],
    ],
    [
      'SUB_WORKFLOW with an inline definition',
      { type: 'SUB_WORKFLOW', subWorkflowParam: { workflowDefinition: { name: 'inline' } } },
      [],
    ],
    ['JSON_JQ_TRANSFORM without a query', { type: 'JSON_JQ_TRANSFORM' }, ['inputParameters.queryExpression']],
    ['INLINE without an expression', { type: 'INLINE' }, ['inputParameters.expression']],
    [
      'INLINE with an unknown evaluator',
      { type: 'INLINE', inputParameters: { expression: '1', evaluatorType: 'lua' } },
      ['inputParameters.evaluatorType'],
    ],
    [
      'WAIT with both duration and until',
      { type: 'WAIT', inputParameters: { duration: '1s', until: '2026-01-01 10:00' } },
      ['inputParameters'],
    ],
    [
      'WAIT with a bad duration',
      { type: 'WAIT', inputParameters: { duration: 'soon' } },
      ['inputParameters.duration'],
    ],
    ['WAIT with a compound duration', { type: 'WAIT', inputParameters: { duration: '1d 2h 30m' } }, []],
    [
      'WAIT with a templated duration',
      { type: 'WAIT', inputParameters: { duration: ref('workflow.input.d') } },
      [],
    ],
    [
      'WAIT with a bad date',
      { type: 'WAIT', inputParameters: { until: 'tomorrow' } },
      ['inputParameters.until'],
    ],
    ['WAIT with a date and zone', { type: 'WAIT', inputParameters: { until: '2026-01-31 18:00 UTC' } }, []],
  ])('%s', (_case, task, expected) => {
    expect(problems(task)).toEqual(expected);
  });

  it('names the task in every message', () => {
    const issues = new Issues();
    TASK_TYPE_RULES.DO_WHILE?.({ name: 'my_loop', type: 'DO_WHILE' }, 'tasks[4].', issues);
    expect(issues.list).toEqual([
      {
        path: 'tasks[4].loopCondition',
        message: 'loopCondition field is required for taskType: DO_WHILE taskName: my_loop',
      },
      {
        path: 'tasks[4].loopOver',
        message: 'loopOver field should have atleast one task for taskType: DO_WHILE taskName: my_loop',
      },
    ]);
  });
});
