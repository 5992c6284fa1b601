/** PULL_WORKFLOW_MESSAGES (docs/conductor-compat.md §5.23): takes messages from the run's queue, off the decider. */
import type { TaskTypeSpec } from './spec.ts';

export const pullWorkflowMessagesSpec: TaskTypeSpec = {
  type: 'PULL_WORKFLOW_MESSAGES',
  kind: 'async',
  supported: true,
};
