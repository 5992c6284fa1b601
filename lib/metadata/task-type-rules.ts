/**
 * Registration-time checks per task type (docs/conductor-compat.md §0.3, WorkflowTaskTypeConstraint):
 * a definition missing a type's required parameters is rejected with the missing names. The rules
 * live in each type's spec (lib/model/task-types/); this is the by-name view derived from them.
 */
import { TASK_TYPE_SPECS } from '../model/task-types/index.ts';
import type { Issues } from '../validation/issues.ts';

export type TaskTypeRule = (task: Record<string, unknown>, path: string, issues: Issues) => void;

export const TASK_TYPE_RULES: Readonly<Record<string, TaskTypeRule>> = Object.fromEntries(
  TASK_TYPE_SPECS.flatMap((spec) => {
    const validate = spec.validate;
    return validate ? [[spec.type, validate] as const] : [];
  }),
);
