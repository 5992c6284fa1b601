/** TERMINATE: ends the run with the given status; nothing follows it. */
import { inputOf, type TaskTypeSpec } from './spec.ts';

const TERMINATION_STATUSES = ['COMPLETED', 'FAILED', 'TERMINATED'];

export const terminateSpec: TaskTypeSpec = {
  type: 'TERMINATE',
  kind: 'sync',
  supported: true,
  endsFlow: true,
  validate(task, path, issues) {
    if (task.optional === true)
      issues.add(`${path}optional`, `terminate task cannot be optional, taskName: ${task.name}`);
    const status = inputOf(task).terminationStatus;
    if (!TERMINATION_STATUSES.includes(String(status))) {
      issues.add(
        `${path}inputParameters.terminationStatus`,
        `terminationStatus must be COMPLETED, FAILED or TERMINATED for taskType: TERMINATE taskName: ${task.name}`,
        status,
      );
    }
  },
};
