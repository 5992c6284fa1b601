/**
 * Poll-time limits of a task definition (docs/conductor-compat.md §4.4): `concurrentExecLimit` caps
 * IN_PROGRESS tasks of a definition; `rateLimitPerFrequency` caps tasks handed out per
 * `rateLimitFrequencyInSeconds` window. A task over either limit stays queued for a later poll.
 *
 * Both are kept in the store (PollLimitStore), so they hold across processes: every Lambda
 * instance that answers polls takes slots and counts hand-outs with conditional writes on the same
 * items. Rate windows are fixed windows aligned to the epoch.
 */
import type { Clock } from '../model/clock.ts';
import { isTerminalTask, type TaskRecord } from '../model/execution.ts';
import type { PollLimitStore } from '../store/ports.ts';

/** Reads a task's current row. */
export type TaskReader = (workflowId: string, taskId: string) => Promise<TaskRecord | undefined>;

const concurrencyOf = (task: TaskRecord) => task.workflowTask.taskDefinition?.concurrentExecLimit ?? 0;

export class PollLimits {
  constructor(
    private readonly clock: Clock,
    private readonly store: PollLimitStore,
    private readonly readTask: TaskReader,
  ) {}

  /**
   * Takes what the task needs to be handed out: a concurrency slot, then a place in the rate
   * window. False leaves nothing taken. A claim that then fails gives the slot back (`finished`).
   */
  async admit(task: TaskRecord): Promise<boolean> {
    const limit = concurrencyOf(task);
    const holder = { workflowId: task.workflowInstanceId, taskId: task.taskId };
    if (limit > 0 && !(await this.takeSlot(task.taskDefName, limit, holder))) return false;
    const perWindow = task.rateLimitPerFrequency;
    if (perWindow > 0) {
      const windowMs = Math.max(1, task.rateLimitFrequencyInSeconds) * 1000;
      const start = Math.floor(this.clock.now() / windowMs) * windowMs;
      if (!(await this.store.countInWindow(task.taskDefName, start, perWindow, start + windowMs))) {
        if (limit > 0) await this.store.release(task.taskDefName, holder);
        return false;
      }
    }
    return true;
  }

  /**
   * Worker updates give slots back through `finished`, but a task can leave IN_PROGRESS without
   * one: the decider times it out, a terminate cancels it. So at the limit the holders' rows are
   * read, and those that are over (or gone) give their slots back (Conductor counts IN_PROGRESS rows).
   */
  private async takeSlot(name: string, limit: number, holder: { workflowId: string; taskId: string }) {
    if (await this.store.acquire(name, limit, holder)) return true;
    let freed = false;
    for (const held of await this.store.holders(name)) {
      const row = await this.readTask(held.workflowId, held.taskId);
      // Not while SCHEDULED: a holder is SCHEDULED between taking its slot and its claim's write.
      if (!row || isTerminalTask(row.status)) {
        await this.store.release(name, held);
        freed = true;
      }
    }
    return freed && this.store.acquire(name, limit, holder);
  }

  /** The task left IN_PROGRESS (or its claim failed): its slot goes back. */
  async finished(task: TaskRecord): Promise<void> {
    if (concurrencyOf(task) > 0)
      await this.store.release(task.taskDefName, {
        workflowId: task.workflowInstanceId,
        taskId: task.taskId,
      });
  }
}
