/** SET_VARIABLE: writes its input into the run's variables. */
import type { TaskTypeSpec } from './spec.ts';

export const setVariableSpec: TaskTypeSpec = { type: 'SET_VARIABLE', kind: 'sync', supported: true };
