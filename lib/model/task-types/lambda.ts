/** LAMBDA (docs/conductor-compat.md §5.17): the deprecated alias of INLINE, a script function body. */
import { inputOf, present, type TaskTypeSpec } from './spec.ts';

export const lambdaSpec: TaskTypeSpec = {
  type: 'LAMBDA',
  kind: 'sync',
  supported: true,
  validate(task, path, issues) {
    if (!present(inputOf(task).scriptExpression))
      issues.add(
        `${path}inputParameters.scriptExpression`,
        `inputParameters.scriptExpression is required for taskType: LAMBDA taskName: ${task.name}`,
      );
  },
};
