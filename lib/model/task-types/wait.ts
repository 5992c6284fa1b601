/**
 * WAIT (docs/conductor-compat.md §5.12), HUMAN (§5.13) and Orkes' YIELD: tasks that block until a
 * deadline or something outside the engine completes them; the signal routes may complete them.
 */
import { inputOf, present, type TaskTypeSpec } from './spec.ts';

export const waitSpec: TaskTypeSpec = {
  type: 'WAIT',
  kind: 'sync',
  supported: true,
  signalTarget: true,
  validate(task, path, issues) {
    const params = inputOf(task);
    if (present(params.duration) && present(params.until)) {
      issues.add(
        `${path}inputParameters`,
        `Both 'duration' and 'until' specified. Please provide only one input for taskType: WAIT taskName: ${task.name}`,
      );
    }
    const duration = params.duration;
    if (
      typeof duration === 'string' &&
      !duration.includes('${') &&
      !/^\s*(\d+\s*(d|days?|h|hrs?|hours?|m|mins?|minutes?|s|secs?|seconds?)\s*)+$/i.test(duration)
    ) {
      issues.add(
        `${path}inputParameters.duration`,
        `duration is not a valid duration such as '30s' or '1d 2h 3m' for taskName: ${task.name}`,
        duration,
      );
    }
    const until = params.until;
    if (
      typeof until === 'string' &&
      !until.includes('${') &&
      !/^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}( \S+)?)?$/.test(until.trim())
    ) {
      issues.add(
        `${path}inputParameters.until`,
        `until is not a valid date such as '2026-01-31 18:00' for taskName: ${task.name}`,
        until,
      );
    }
  },
};

export const humanSpec: TaskTypeSpec = { type: 'HUMAN', kind: 'sync', supported: true, signalTarget: true };
export const yieldSpec: TaskTypeSpec = { type: 'YIELD', kind: 'sync', supported: true, signalTarget: true };
