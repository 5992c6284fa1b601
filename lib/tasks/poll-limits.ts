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

/** Reads a task's current row. */
export type TaskReader = (workflowId: string, taskId: string) => Promise<TaskRecord | undefined>;

export class PollLimits {
  /** Per definition name: the tasks this process handed out that may still be IN_PROGRESS, id to run id. */
  private readonly inProgress = new Map<string, Map<string, string>>();
  private readonly handedOut = new Map<string, number[]>();

  constructor(
    private readonly clock: Clock,
    private readonly readTask: TaskReader,
  ) {}

  async admit(task: TaskRecord): Promise<boolean> {
    const def = task.workflowTask.taskDefinition;
    const concurrent = def?.concurrentExecLimit ?? 0;
    if (concurrent > 0 && !(await this.hasSlot(task.taskDefName, concurrent))) return false;
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

  /**
   * Worker updates report their ends through `finished`, but a task can leave IN_PROGRESS without
   * one: the decider times it out, a terminate cancels it. So at the limit the rows are read, and
   * the tasks no longer IN_PROGRESS give their slots back (Conductor counts IN_PROGRESS rows, §4.4).
   */
  private async hasSlot(defName: string, limit: number): Promise<boolean> {
    const running = this.inProgress.get(defName);
    if (!running || running.size < limit) return true;
    for (const [taskId, workflowId] of [...running]) {
      const row = await this.readTask(workflowId, taskId);
      if (row?.status !== 'IN_PROGRESS') running.delete(taskId);
    }
    return running.size < limit;
  }

  started(task: TaskRecord): void {
    const def = task.workflowTask.taskDefinition;
    if ((def?.concurrentExecLimit ?? 0) > 0) {
      const running = this.inProgress.get(task.taskDefName) ?? new Map<string, string>();
      running.set(task.taskId, task.workflowInstanceId);
      this.inProgress.set(task.taskDefName, running);
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
