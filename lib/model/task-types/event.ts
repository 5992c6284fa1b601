/** EVENT (docs/conductor-compat.md §5.20): publishes its input to a sink, off the decider. */
import { present, type TaskTypeSpec } from './spec.ts';

export const eventSpec: TaskTypeSpec = {
  type: 'EVENT',
  kind: 'async',
  supported: true,
  validate(task, path, issues) {
    if (!present(task.sink))
      issues.add(`${path}sink`, `sink field is required for taskType: EVENT taskName: ${task.name}`);
  },
};
