/** DO_WHILE (docs/conductor-compat.md §5.6): its body runs once per iteration while the condition holds. */
import { nonEmptyArray, present, type TaskTypeSpec } from './spec.ts';

export const doWhileSpec: TaskTypeSpec = {
  type: 'DO_WHILE',
  kind: 'sync',
  supported: true,
  operator: true,
  children: [{ name: 'loopOver', shape: 'list' }],
  loop: true,
  reopenInPlace: true,
  validate(task, path, issues) {
    if (!present(task.loopCondition))
      issues.add(
        `${path}loopCondition`,
        `loopCondition field is required for taskType: DO_WHILE taskName: ${task.name}`,
      );
    if (!nonEmptyArray(task.loopOver))
      issues.add(
        `${path}loopOver`,
        `loopOver field should have atleast one task for taskType: DO_WHILE taskName: ${task.name}`,
      );
  },
};
