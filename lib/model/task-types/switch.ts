/** SWITCH and its legacy form DECISION (docs/conductor-compat.md §5.4): one branch runs, then the flow goes on. */
import { nonEmptyObject, present, type TaskTypeSpec } from './spec.ts';

const branches = [
  { name: 'decisionCases', shape: 'map' },
  { name: 'defaultCase', shape: 'list' },
] as const;

export const switchSpec: TaskTypeSpec = {
  type: 'SWITCH',
  kind: 'sync',
  supported: true,
  operator: true,
  children: branches,
  afterChildren: 'continue',
  validate(task, path, issues) {
    if (!present(task.evaluatorType))
      issues.add(
        `${path}evaluatorType`,
        `evaluatorType field is required for taskType: SWITCH taskName: ${task.name}`,
      );
    else if (!['value-param', 'javascript', 'graaljs'].includes(String(task.evaluatorType))) {
      issues.add(
        `${path}evaluatorType`,
        `evaluatorType must be value-param, javascript or graaljs for taskType: SWITCH taskName: ${task.name}`,
        task.evaluatorType,
      );
    }
    if (!present(task.expression))
      issues.add(
        `${path}expression`,
        `expression field is required for taskType: SWITCH taskName: ${task.name}`,
      );
    if (!nonEmptyObject(task.decisionCases)) {
      issues.add(
        `${path}decisionCases`,
        `decisionCases should have atleast one task for taskType: SWITCH taskName: ${task.name}`,
      );
    }
  },
};

export const decisionSpec: TaskTypeSpec = {
  type: 'DECISION',
  kind: 'sync',
  supported: true,
  operator: true,
  children: branches,
  afterChildren: 'continue',
  validate(task, path, issues) {
    if (!present(task.caseValueParam) && !present(task.caseExpression)) {
      issues.add(
        `${path}caseValueParam`,
        `caseValueParam or caseExpression field is required for taskType: DECISION taskName: ${task.name}`,
      );
    }
    if (!nonEmptyObject(task.decisionCases)) {
      issues.add(
        `${path}decisionCases`,
        `decisionCases should have atleast one task for taskType: DECISION taskName: ${task.name}`,
      );
    }
  },
};
