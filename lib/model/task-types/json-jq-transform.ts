/** JSON_JQ_TRANSFORM (docs/conductor-compat.md §5.18): a jq filter over the task input, inside the decide. */
import { inputOf, present, type TaskTypeSpec, templateOf } from './spec.ts';

export const jsonJqTransformSpec: TaskTypeSpec = {
  type: 'JSON_JQ_TRANSFORM',
  kind: 'sync',
  supported: true,
  validate(task, path, issues) {
    if (!present(inputOf(task).queryExpression) && !present(templateOf(task).queryExpression)) {
      issues.add(
        `${path}inputParameters.queryExpression`,
        `inputParameters.queryExpression is required for taskType: JSON_JQ_TRANSFORM taskName: ${task.name}`,
      );
    }
  },
};
