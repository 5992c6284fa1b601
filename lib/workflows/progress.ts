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
import { LocalNotifier, type Notifier, type Watch } from '../model/notifier.ts';
import { decorate } from '../store/decorate.ts';
import type { ExecutionStore, RunStore } from '../store/ports.ts';

/** Commit notifications keyed by workflow id (lib/model/notifier.ts). */
export type RunWatcher = Notifier;
export type RunWatch = Watch;
export type { WakeReason } from '../model/notifier.ts';

export interface LocalRunWatcherOptions {
  /** Wake waiters this often even with nothing published (hosts where others write the runs). */
  rereadMs?: number;
}

/** The in-process watcher of runs: publishes reach the watches of this process. */
export class LocalRunWatcher extends LocalNotifier {
  constructor(options: LocalRunWatcherOptions = {}) {
    super(options.rereadMs === undefined ? undefined : { initialMs: options.rereadMs, factor: 1 });
  }
}

/** The execution store with every write to a run published to the watcher once it is stored. */
export function publishingExecutions(inner: ExecutionStore, watcher: RunWatcher): ExecutionStore {
  return decorate<ExecutionStore>(inner, {
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
  });
}

/**
 * Waits until the run's record moves past `rev` (a commit landed) or `timeoutMs` passes on the
 * clock; woken by the run's own commits, never by a polling loop of its own.
 */
export async function waitForRevision(
  deps: { executions: Pick<RunStore, 'getWorkflow'>; watcher: RunWatcher; clock: Clock },
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
