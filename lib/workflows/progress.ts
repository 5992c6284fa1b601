/**
 * Commit notifications: how a request that waits on a run (synchronous execute, the sync task
 * updates and signals) learns that the run moved, without a polling loop. Every write the engine
 * makes to a run (its record's commit, a task row's update) is published as "run X changed"; a
 * waiter watches the runs it cares about and re-reads them only when one changed.
 *
 * In-process publishing sees every write made by this process. That is the whole engine on the
 * local host, and on AWS the request's own Lambda (the execute route runs its run's first decides
 * inline). Writes made by another Lambda (the decider consumer, a worker's update elsewhere) are
 * not seen there, so the AWS host also wakes every waiter after `rereadMs` (250 ms): a bounded
 * re-read of at most 4 record reads per second per waiting request.
 */
import type { Clock } from '../model/clock.ts';
import type { ExecutionStore } from '../store/ports.ts';

export interface RunWatcher {
  /** Tells the waiters of a run that it changed. */
  publish(workflowId: string): void;
  /** Starts watching runs: a change published from now on wakes the watch's `next`. */
  watch(workflowIds: readonly string[]): RunWatch;
}

/** Why a wait ended: a published change, the time given, or a re-read tick (AWS). */
export type WakeReason = 'changed' | 'timeout' | 'reread';

export interface RunWatch {
  /** Watches one more run (a sub-workflow found while waiting). */
  add(workflowId: string): void;
  /**
   * Resolves once a watched run changed since the previous call (at once if it already did), or
   * after `timeoutMs`, or after the watcher's re-read interval, whichever comes first; says which.
   */
  next(timeoutMs: number): Promise<WakeReason>;
  close(): void;
}

export interface LocalRunWatcherOptions {
  /** Wake waiters this often even with nothing published (hosts where others write the runs). */
  rereadMs?: number;
}

/** The in-process watcher: publishes reach the watches of this process. */
export class LocalRunWatcher implements RunWatcher {
  private readonly watches = new Map<string, Set<Watch>>();

  constructor(private readonly options: LocalRunWatcherOptions = {}) {}

  publish(workflowId: string): void {
    const set = this.watches.get(workflowId);
    if (set) for (const watch of set) watch.changed();
  }

  watch(workflowIds: readonly string[]): RunWatch {
    const watch = new Watch(this, this.options.rereadMs);
    for (const id of workflowIds) watch.add(id);
    return watch;
  }

  /** @internal */
  subscribe(workflowId: string, watch: Watch): void {
    let set = this.watches.get(workflowId);
    if (!set) {
      set = new Set();
      this.watches.set(workflowId, set);
    }
    set.add(watch);
  }

  /** @internal */
  unsubscribe(workflowId: string, watch: Watch): void {
    const set = this.watches.get(workflowId);
    if (!set) return;
    set.delete(watch);
    if (set.size === 0) this.watches.delete(workflowId);
  }
}

class Watch implements RunWatch {
  private readonly ids = new Set<string>();
  /** A change arrived that no `next` has reported yet. */
  private dirty = false;
  private wake: (() => void) | undefined;

  constructor(
    private readonly owner: LocalRunWatcher,
    private readonly rereadMs: number | undefined,
  ) {}

  add(workflowId: string): void {
    if (this.ids.has(workflowId)) return;
    this.ids.add(workflowId);
    this.owner.subscribe(workflowId, this);
  }

  changed(): void {
    this.dirty = true;
    this.wake?.();
  }

  next(timeoutMs: number): Promise<WakeReason> {
    if (this.dirty) {
      this.dirty = false;
      return Promise.resolve('changed');
    }
    if (timeoutMs <= 0) return Promise.resolve('timeout');
    const reread = this.rereadMs !== undefined && this.rereadMs < timeoutMs;
    return new Promise((resolve) => {
      const finish = (reason: WakeReason) => {
        clearTimeout(timer);
        this.wake = undefined;
        this.dirty = false;
        resolve(reason);
      };
      const timer = setTimeout(
        () => finish(reread ? 'reread' : 'timeout'),
        reread ? (this.rereadMs as number) : timeoutMs,
      );
      this.wake = () => finish('changed');
    });
  }

  close(): void {
    for (const id of this.ids) this.owner.unsubscribe(id, this);
    this.ids.clear();
    this.wake?.();
  }
}

/** The execution store with every write to a run published to the watcher once it is stored. */
export function publishingExecutions(inner: ExecutionStore, watcher: RunWatcher): ExecutionStore {
  return {
    createWorkflow: async (record) => {
      await inner.createWorkflow(record);
      watcher.publish(record.workflowId);
    },
    commitWorkflow: async (record, expectedRev) => {
      await inner.commitWorkflow(record, expectedRev);
      watcher.publish(record.workflowId);
    },
    updateTask: async (task, expectedRev) => {
      await inner.updateTask(task, expectedRev);
      watcher.publish(task.workflowInstanceId);
    },
    removeWorkflow: async (workflowId) => {
      await inner.removeWorkflow(workflowId);
      watcher.publish(workflowId);
    },
    getWorkflow: (workflowId) => inner.getWorkflow(workflowId),
    createTasks: (tasks) => inner.createTasks(tasks),
    getTask: (workflowId, taskId) => inner.getTask(workflowId, taskId),
    getTasks: (workflowId, taskIds) => inner.getTasks(workflowId, taskIds),
    findTask: (taskId) => inner.findTask(taskId),
    listTasks: (workflowId) => inner.listTasks(workflowId),
    deleteTasks: (workflowId, taskIds) => inner.deleteTasks(workflowId, taskIds),
    findWorkflows: (query) => inner.findWorkflows(query),
    dueWakeups: (now, limit) => inner.dueWakeups(now, limit),
    unfinishedWorkflows: (limit) => inner.unfinishedWorkflows(limit),
    runIndex: (read) => inner.runIndex(read),
    getWorkflowsById: (ids) => inner.getWorkflowsById(ids),
    scanTasks: (ids) => inner.scanTasks(ids),
    tasksOfTypes: (types) => inner.tasksOfTypes(types),
    appendLogs: (logs) => inner.appendLogs(logs),
    logs: (taskId) => inner.logs(taskId),
    claimIdempotencyKey: (claim) => inner.claimIdempotencyKey(claim),
  };
}

/**
 * Waits until the run's record moves past `rev` (a commit landed) or `timeoutMs` passes on the
 * clock; woken by the run's own commits, never by a polling loop of its own.
 */
export async function waitForRevision(
  deps: { executions: ExecutionStore; watcher: RunWatcher; clock: Clock },
  workflowId: string,
  rev: number,
  timeoutMs: number,
): Promise<void> {
  const deadline = deps.clock.now() + timeoutMs;
  // Watch before reading: a commit between the read and the wait still wakes it.
  const watch = deps.watcher.watch([workflowId]);
  try {
    for (;;) {
      const record = await deps.executions.getWorkflow(workflowId);
      if (!record || record.rev > rev) return;
      const left = deadline - deps.clock.now();
      // The real-time bound holds too, so a clock that does not move (tests) cannot hold it forever.
      if (left <= 0 || (await watch.next(left)) === 'timeout') return;
    }
  } finally {
    watch.close();
  }
}
