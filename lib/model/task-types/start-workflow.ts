/** START_WORKFLOW (docs/conductor-compat.md §5.11): starts an independent run, fire and forget. */
import { inputOf, present, type TaskTypeSpec } from './spec.ts';

export const startWorkflowSpec: TaskTypeSpec = {
  type: 'START_WORKFLOW',
  kind: 'async',
  supported: true,
  validate(task, path, issues) {
    if (!present(inputOf(task).startWorkflow)) {
      issues.add(
        `${path}inputParameters.startWorkflow`,
        `inputParameters.startWorkflow is required for taskType: START_WORKFLOW taskName: ${task.name}`,
      );
    }
  },
};
