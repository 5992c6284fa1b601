/**
 * Poll-time limits of a task definition (reference/conductor.md §4.4): `concurrentExecLimit` caps
 * IN_PROGRESS tasks of a definition; `rateLimitPerFrequency` caps tasks handed out per
 * `rateLimitFrequencyInSeconds` window. A task over either limit stays queued for a later poll.
 *
 * The counts are kept by this process: exact for the local server (one process), per function
 * instance on AWS. A store-backed counter is the follow-up for a fleet-wide limit.
 */
import type { Clock } from '../model/clock.ts';
import type { TaskRecord } from '../model/execution.ts';

export class PollLimits {
  private readonly inProgress = new Map<string, Set<string>>();
  private readonly handedOut = new Map<string, number[]>();

  constructor(private readonly clock: Clock) {}

  admit(task: TaskRecord): boolean {
    const def = task.workflowTask.taskDefinition;
    const concurrent = def?.concurrentExecLimit ?? 0;
    if (concurrent > 0 && (this.inProgress.get(task.taskDefName)?.size ?? 0) >= concurrent) return false;
    const perWindow = task.rateLimitPerFrequency;
    if (perWindow > 0) {
      const windowMs = Math.max(1, task.rateLimitFrequencyInSeconds) * 1000;
      const now = this.clock.now();
      const recent = (this.handedOut.get(task.taskDefName) ?? []).filter((t) => now - t < windowMs);
      this.handedOut.set(task.taskDefName, recent);
      if (recent.length >= perWindow) return false;
    }
    return true;
  }

  started(task: TaskRecord): void {
    const def = task.workflowTask.taskDefinition;
    if ((def?.concurrentExecLimit ?? 0) > 0) {
      const set = this.inProgress.get(task.taskDefName) ?? new Set<string>();
      set.add(task.taskId);
      this.inProgress.set(task.taskDefName, set);
    }
    if (task.rateLimitPerFrequency > 0) {
      const list = this.handedOut.get(task.taskDefName) ?? [];
      list.push(this.clock.now());
      this.handedOut.set(task.taskDefName, list);
    }
  }

  finished(task: TaskRecord): void {
    this.inProgress.get(task.taskDefName)?.delete(task.taskId);
  }
}
