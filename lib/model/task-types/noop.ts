/** NOOP (docs/conductor-compat.md §5.22): completes at once, inside the decide. */
import type { TaskTypeSpec } from './spec.ts';

export const noopSpec: TaskTypeSpec = { type: 'NOOP', kind: 'sync', supported: true };
