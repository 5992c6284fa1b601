/** EXCLUSIVE_JOIN (docs/conductor-compat.md §5.9): waits for whichever one of `joinOn` ran. */
import { nonEmptyArray, type TaskTypeSpec } from './spec.ts';

export const exclusiveJoinSpec: TaskTypeSpec = {
  type: 'EXCLUSIVE_JOIN',
  kind: 'sync',
  supported: true,
  operator: true,
  reopenInPlace: true,
  validate(task, path, issues) {
    if (!nonEmptyArray(task.joinOn) && !nonEmptyArray(task.defaultExclusiveJoinTask)) {
      issues.add(
        `${path}joinOn`,
        `joinOn (or defaultExclusiveJoinTask) is required for taskType: EXCLUSIVE_JOIN taskName: ${task.name}`,
      );
    }
  },
};
