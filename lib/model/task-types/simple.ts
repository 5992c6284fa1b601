/** SIMPLE (docs/conductor-compat.md §5.2) and USER_DEFINED: tasks carried out by external workers. */
import { type TaskTypeSpec, workerSpec } from './spec.ts';

export const simpleSpec: TaskTypeSpec = workerSpec('SIMPLE');
export const userDefinedSpec: TaskTypeSpec = workerSpec('USER_DEFINED');
