/** HTTP (docs/conductor-compat.md §5.19): an HTTP request made off the decider. */
import { inputOf, present, type TaskTypeSpec, templateOf } from './spec.ts';

export const httpSpec: TaskTypeSpec = {
  type: 'HTTP',
  kind: 'async',
  supported: true,
  validate(task, path, issues) {
    if (
      !present(inputOf(task).http_request) &&
      !present(inputOf(task).uri) &&
      !present(templateOf(task).http_request)
    ) {
      issues.add(
        `${path}inputParameters.http_request`,
        `inputParameters.http_request (or uri and method) is required for taskType: HTTP taskName: ${task.name}`,
      );
    }
  },
};
