/**
 * DYNAMIC (docs/conductor-compat.md §5.3): a worker task whose type is named by an input value at
 * run time (`dynamicTaskNameParam`). It is queued like SIMPLE, under the resolved name.
 */
import { present, type TaskTypeSpec } from './spec.ts';

export const dynamicSpec: TaskTypeSpec = {
  type: 'DYNAMIC',
  kind: 'worker',
  supported: true,
  validate(task, path, issues) {
    if (!present(task.dynamicTaskNameParam)) {
      issues.add(
        `${path}dynamicTaskNameParam`,
        `dynamicTaskNameParam field is required for taskType: DYNAMIC taskName: ${task.name}`,
      );
    }
  },
};
