/**
 * FORK_JOIN_DYNAMIC (docs/conductor-compat.md §5.8): parallel branches whose tasks are given at run
 * time, followed by a JOIN that waits for them all.
 */
import { inputOf, present, type TaskTypeSpec } from './spec.ts';

export const forkJoinDynamicSpec: TaskTypeSpec = {
  type: 'FORK_JOIN_DYNAMIC',
  kind: 'sync',
  supported: true,
  operator: true,
  validate(task, path, issues) {
    const byInputs = present(inputOf(task).forkTaskInputs) || present(inputOf(task).forkTaskName);
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
};
