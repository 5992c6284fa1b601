/** SUB_WORKFLOW (docs/conductor-compat.md §5.10): runs a child workflow and follows its end. */
import { isObject, present, type TaskTypeSpec } from './spec.ts';

export const subWorkflowSpec: TaskTypeSpec = {
  type: 'SUB_WORKFLOW',
  // The child runs outside the decide and its end is reported back to this task.
  kind: 'async',
  supported: true,
  childWorkflow: true,
  validate(task, path, issues) {
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
};
