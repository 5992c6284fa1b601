/**
 * Registration-time checks per task type (reference/conductor.md §0.3, WorkflowTaskTypeConstraint):
 * a definition missing a type's required parameters is rejected with the missing names.
 * Task-type modules of the engine may add rules here by type name.
 */
import type { Issues } from './issues.ts';
import { isObject } from './issues.ts';

export type TaskTypeRule = (task: Record<string, unknown>, path: string, issues: Issues) => void;

const input = (task: Record<string, unknown>): Record<string, unknown> =>
  isObject(task.inputParameters) ? task.inputParameters : {};

const nonEmptyObject = (value: unknown): boolean => isObject(value) && Object.keys(value).length > 0;
const nonEmptyArray = (value: unknown): boolean => Array.isArray(value) && value.length > 0;
const present = (value: unknown): boolean => value !== undefined && value !== null && value !== '';

const TERMINATION_STATUSES = ['COMPLETED', 'FAILED', 'TERMINATED'];

export const TASK_TYPE_RULES: Record<string, TaskTypeRule> = {
  EVENT(task, path, issues) {
    if (!present(task.sink))
      issues.add(`${path}sink`, `sink field is required for taskType: EVENT taskName: ${task.name}`);
  },
  DECISION(task, path, issues) {
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
  SWITCH(task, path, issues) {
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
  DYNAMIC(task, path, issues) {
    if (!present(task.dynamicTaskNameParam)) {
      issues.add(
        `${path}dynamicTaskNameParam`,
        `dynamicTaskNameParam field is required for taskType: DYNAMIC taskName: ${task.name}`,
      );
    }
  },
  FORK_JOIN_DYNAMIC(task, path, issues) {
    const byInputs = present(input(task).forkTaskInputs) || present(input(task).forkTaskName);
    const byParams = present(task.dynamicForkTasksParam) && present(task.dynamicForkTasksInputParamName);
    const legacy = present(task.dynamicForkJoinTasksParam);
    if (!byInputs && !byParams && !legacy) {
      issues.add(
        `${path}dynamicForkTasksParam`,
        `dynamicForkTasksParam and dynamicForkTasksInputParamName (or inputParameters.forkTaskInputs) are required for taskType: FORK_JOIN_DYNAMIC taskName: ${task.name}`,
      );
    } else if (
      legacy &&
      (present(task.dynamicForkTasksParam) || present(task.dynamicForkTasksInputParamName))
    ) {
      issues.add(
        `${path}dynamicForkJoinTasksParam`,
        `dynamicForkJoinTasksParam cannot be combined with dynamicForkTasksParam or dynamicForkTasksInputParamName for taskName: ${task.name}`,
      );
    }
  },
  HTTP(task, path, issues) {
    const def = isObject(task.taskDefinition) ? task.taskDefinition : {};
    const template = isObject(def.inputTemplate) ? def.inputTemplate : {};
    if (!present(input(task).http_request) && !present(input(task).uri) && !present(template.http_request)) {
      issues.add(
        `${path}inputParameters.http_request`,
        `inputParameters.http_request (or uri and method) is required for taskType: HTTP taskName: ${task.name}`,
      );
    }
  },
  FORK_JOIN(task, path, issues) {
    if (task.forkTasks !== undefined && !nonEmptyArray(task.forkTasks)) {
      issues.add(
        `${path}forkTasks`,
        `forkTasks should have atleast one task for taskType: FORK_JOIN taskName: ${task.name}`,
      );
    }
  },
  TERMINATE(task, path, issues) {
    if (task.optional === true)
      issues.add(`${path}optional`, `terminate task cannot be optional, taskName: ${task.name}`);
    const status = input(task).terminationStatus;
    if (!TERMINATION_STATUSES.includes(String(status))) {
      issues.add(
        `${path}inputParameters.terminationStatus`,
        `terminationStatus must be COMPLETED, FAILED or TERMINATED for taskType: TERMINATE taskName: ${task.name}`,
        status,
      );
    }
  },
  KAFKA_PUBLISH(task, path, issues) {
    const def = isObject(task.taskDefinition) ? task.taskDefinition : {};
    const template = isObject(def.inputTemplate) ? def.inputTemplate : {};
    if (!present(input(task).kafka_request) && !present(template.kafka_request)) {
      issues.add(
        `${path}inputParameters.kafka_request`,
        `inputParameters.kafka_request is required for taskType: KAFKA_PUBLISH taskName: ${task.name}`,
      );
    }
  },
  DO_WHILE(task, path, issues) {
    if (!present(task.loopCondition))
      issues.add(
        `${path}loopCondition`,
        `loopCondition field is required for taskType: DO_WHILE taskName: ${task.name}`,
      );
    if (!nonEmptyArray(task.loopOver))
      issues.add(
        `${path}loopOver`,
        `loopOver field should have atleast one task for taskType: DO_WHILE taskName: ${task.name}`,
      );
  },
  SUB_WORKFLOW(task, path, issues) {
    const params = task.subWorkflowParam;
    if (!isObject(params)) {
      issues.add(
        `${path}subWorkflowParam`,
        `subWorkflowParam field is required for taskType: SUB_WORKFLOW taskName: ${task.name}`,
      );
    } else if (!present(params.name) && !present(params.workflowDefinition)) {
      issues.add(
        `${path}subWorkflowParam.name`,
        `subWorkflowParam.name (or workflowDefinition) is required for taskType: SUB_WORKFLOW taskName: ${task.name}`,
      );
    }
  },
  JSON_JQ_TRANSFORM(task, path, issues) {
    const def = isObject(task.taskDefinition) ? task.taskDefinition : {};
    const template = isObject(def.inputTemplate) ? def.inputTemplate : {};
    if (!present(input(task).queryExpression) && !present(template.queryExpression)) {
      issues.add(
        `${path}inputParameters.queryExpression`,
        `inputParameters.queryExpression is required for taskType: JSON_JQ_TRANSFORM taskName: ${task.name}`,
      );
    }
  },
  INLINE(task, path, issues) {
    const params = input(task);
    if (!present(params.expression))
      issues.add(
        `${path}inputParameters.expression`,
        `inputParameters.expression is required for taskType: INLINE taskName: ${task.name}`,
      );
    if (
      present(params.evaluatorType) &&
      !['javascript', 'graaljs', 'value-param'].includes(String(params.evaluatorType))
    ) {
      issues.add(
        `${path}inputParameters.evaluatorType`,
        `evaluatorType must be javascript or graaljs for taskType: INLINE taskName: ${task.name}`,
        params.evaluatorType,
      );
    }
  },
  WAIT(task, path, issues) {
    const params = input(task);
    if (present(params.duration) && present(params.until)) {
      issues.add(
        `${path}inputParameters`,
        `Both 'duration' and 'until' specified. Please provide only one input for taskType: WAIT taskName: ${task.name}`,
      );
    }
    const duration = params.duration;
    if (
      typeof duration === 'string' &&
      !duration.includes('${') &&
      !/^\s*(\d+\s*(d|days?|h|hrs?|hours?|m|mins?|minutes?|s|secs?|seconds?)\s*)+$/i.test(duration)
    ) {
      issues.add(
        `${path}inputParameters.duration`,
        `duration is not a valid duration such as '30s' or '1d 2h 3m' for taskName: ${task.name}`,
        duration,
      );
    }
    const until = params.until;
    if (
      typeof until === 'string' &&
      !until.includes('${') &&
      !/^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}( \S+)?)?$/.test(until.trim())
    ) {
      issues.add(
        `${path}inputParameters.until`,
        `until is not a valid date such as '2026-01-31 18:00' for taskName: ${task.name}`,
        until,
      );
    }
  },
};
