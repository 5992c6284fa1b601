/**
 * The one way a workflow operation changes a run from outside its decider (terminate, and later
 * pause, resume, retry, rerun, skip): read the run and its open task rows, apply a pure change,
 * write the changed rows (each conditional on its revision), commit the run (conditional on its
 * revision), and ask for a decide. A concurrent change (a decide, a worker update) makes one of the
 * conditional writes fail; the whole read-change-write is then done again from a fresh read.
 *
 * Rows are written before the run is committed, so a worker update that lands in between finds
 * either an open task of a running run or a task the operation already changed; a crash in between
 * leaves changed rows in an unchanged run, which the next decide reconciles. What follows a run's
 * end is not part of a change (lib/engine/run-end.ts): the decide a change asks for does it, and an
 * operation that would leave it undone asks RunEnd itself.
 */
import type { Clock } from '../../model/clock.ts';
import { NotFoundError, VersionConflictError } from '../../model/errors.ts';
import { isTerminalTask, type TaskRecord, type WorkflowRecord } from '../../model/execution.ts';
import { retryOnConflict } from '../../model/retry-on-conflict.ts';
import type { DecisionQueue } from '../../queue/ports.ts';
import type { ExecutionStore } from '../../store/ports.ts';
import { rowsOfRun } from '../../store/run-rows.ts';

/** What an operation changes: the run record, and the task rows it changed (as read, rev untouched). */
export interface RunEdit {
  run: WorkflowRecord;
  tasks?: TaskRecord[];
  /** New task rows (a skipped task), created before the changed rows are written. */
  created?: TaskRecord[];
  /** Task rows to delete (restart, rerun), before anything else is written. */
  deleteTaskIds?: string[];
}

export interface MutateOptions {
  /** An unknown run is a NotFoundError (the API's 404) instead of undefined. */
  mustExist?: boolean;
  /** Hand the change every task row of the run (restart, retry, rerun), not only its open ones. */
  allRows?: boolean;
  /**
   * When the change finds nothing to do, still ask for a decide: what follows an earlier change
   * (its parent told of a terminated run's end) may have been lost with a crash after its commit.
   */
  nudge?: boolean;
  /**
   * Done once the change is committed, before the decide is asked for (the decide is asked for even
   * if this fails): what the operation does beyond the run, such as terminate taking the canceled
   * tasks off their queues. It must be something that decide, or a later one, does too, since a crash
   * may come between the commit and this.
   */
  afterCommit?: (committed: WorkflowRecord) => Promise<void>;
}

/**
 * A pure change over the run and the rows of its open tasks, at `now`. Undefined means the
 * operation does not apply (the run is already over, say) and nothing is written.
 */
export type RunChange = (run: WorkflowRecord, openRows: TaskRecord[], now: number) => RunEdit | undefined;

export interface RunMutatorDeps {
  executions: ExecutionStore;
  decisions: DecisionQueue;
  clock: Clock;
}

export class RunMutator {
  constructor(private readonly deps: RunMutatorDeps) {}

  /**
   * Applies `change` to the run; answers the committed run, or undefined when there was nothing to
   * do (or, without `mustExist`, no such run).
   */
  async mutate(
    workflowId: string,
    change: RunChange,
    options: MutateOptions = {},
  ): Promise<WorkflowRecord | undefined> {
    try {
      const committed = await retryOnConflict(() => this.mutateOnce(workflowId, change, options));
      if (!committed && options.nudge) await this.deps.decisions.request(workflowId);
      return committed;
    } catch (error) {
      if (!(error instanceof VersionConflictError)) throw error;
      throw new VersionConflictError(`Workflow ${workflowId} kept changing while it was being changed`);
    }
  }

  /** The store runs are read from (operations that look at more than one run). */
  get executions(): ExecutionStore {
    return this.deps.executions;
  }

  private async mutateOnce(
    workflowId: string,
    change: RunChange,
    options: MutateOptions,
  ): Promise<WorkflowRecord | undefined> {
    const { executions, clock } = this.deps;
    const run = await executions.getWorkflow(workflowId);
    if (!run) {
      if (options.mustExist) throw new NotFoundError(`No such workflow found by id: ${workflowId}`);
      return undefined;
    }
    const open = run.tasks.filter((t) => !isTerminalTask(t.status));
    const rows = options.allRows
      ? await rowsOfRun(executions, run)
      : await executions.getTasks(
          workflowId,
          open.map((t) => t.taskId),
        );
    const edit = change(run, rows, clock.now());
    if (!edit) return undefined;
    if (edit.deleteTaskIds && edit.deleteTaskIds.length > 0)
      await executions.deleteTasks(workflowId, edit.deleteTaskIds);
    // An existing row (an earlier attempt that lost its commit) is adopted, as the executor does.
    if (edit.created?.length) await executions.createTasks(edit.created);
    for (const row of edit.tasks ?? []) await executions.updateTask({ ...row, rev: row.rev + 1 }, row.rev);
    const committed: WorkflowRecord = { ...edit.run, rev: run.rev + 1 };
    await executions.commitWorkflow(committed, run.rev);
    try {
      await options.afterCommit?.(committed);
    } finally {
      await this.deps.decisions.request(workflowId);
    }
    return committed;
  }
}
