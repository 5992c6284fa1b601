/** INLINE (docs/conductor-compat.md §5.16): a script evaluated inside the decide. */
import { inputOf, present, type TaskTypeSpec } from './spec.ts';

export const inlineSpec: TaskTypeSpec = {
  type: 'INLINE',
  kind: 'sync',
  supported: true,
  validate(task, path, issues) {
    const params = inputOf(task);
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
};
