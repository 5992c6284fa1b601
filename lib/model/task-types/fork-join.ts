/** FORK_JOIN and JOIN: parallel branches, and the task that waits for them. */
import { nonEmptyArray, type TaskTypeSpec } from './spec.ts';

export const forkJoinSpec: TaskTypeSpec = {
  type: 'FORK_JOIN',
  kind: 'sync',
  supported: true,
  operator: true,
  children: [{ name: 'forkTasks', shape: 'lists' }],
  validate(task, path, issues) {
    if (task.forkTasks !== undefined && !nonEmptyArray(task.forkTasks)) {
      issues.add(
        `${path}forkTasks`,
        `forkTasks should have atleast one task for taskType: FORK_JOIN taskName: ${task.name}`,
      );
    }
  },
};

export const joinSpec: TaskTypeSpec = {
  type: 'JOIN',
  kind: 'sync',
  supported: true,
  operator: true,
  reopenInPlace: true,
};
