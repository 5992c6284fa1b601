/**
 * What follows a run's end, in one place for everything that ends or removes runs: the executor
 * (a decide that ended the run, and every decide of an ended run after it) and the workflow
 * operations (a terminated run reopened or removed before its decide did this). It exists so the
 * two need not hold each other: each calls RunEnd, and RunEnd reaches what it needs through ports.
 *
 * After an end: the queue entries of the run's canceled (and timed-out) worker tasks are removed, the
 * children of its canceled tasks are terminated, its parent is told, the failure workflow of a run
 * the engine ended unsuccessfully is started, and the run-end hooks run (a capability's cleanup: the
 * run's message queue is deleted). Every step is idempotent, so a decide that died after its commit
 * gets them done on its re-run (lib/engine/ARCHITECTURE.md).
 */
import type { Logger } from '../log/logger.ts';
import type { Clock } from '../model/clock.ts';
import { errorMessage, VersionConflictError } from '../model/errors.ts';
import { endPending, isTerminalTask, type WorkflowRecord } from '../model/execution.ts';
import { retryOnConflict } from '../model/retry-on-conflict.ts';
import type { DecisionQueue } from '../queue/ports.ts';
import type { ExecutionStore, TaskQueue } from '../store/ports.ts';
import { queueEntryOf } from './queues.ts';
import type { TaskTypeRegistry } from './registry.ts';

/** Something else that follows a run's end (a capability's cleanup); idempotent. */
export type RunEndedHook = (run: WorkflowRecord) => Promise<void>;
/** Something else that goes with a removed run (a capability's cleanup); idempotent. */
export type RunRemovedHook = (workflowId: string) => Promise<void>;

export interface RunEndDeps {
  executions: ExecutionStore;
  /** The worker task queues: an ended run's canceled tasks leave them (RunEnd.unqueue). */
  queue: TaskQueue;
  decisions: DecisionQueue;
  registry: TaskTypeRegistry;
  clock: Clock;
  logger: Logger;
  /** Starts the failure workflow of a run the engine ended unsuccessfully (its id derives from the run). */
  startFailureWorkflow(run: WorkflowRecord): Promise<void>;
  /**
   * Ends a run that is still going from outside its decider (workflows/operations/terminate.ts
   * terminateRunning); false when there is no such run or it is over already.
   */
  terminateRun(workflowId: string, reason: string): Promise<boolean>;
  /** Run on every decide of an ended run (so each must be idempotent), and for a removed run that ended. */
  onRunEnded?: readonly RunEndedHook[];
  /** Run once a run and its task rows are deleted (remove, terminate-remove). */
  onRunRemoved?: readonly RunRemovedHook[];
}

export class RunEnd {
  constructor(private readonly deps: RunEndDeps) {}

  /**
   * Does what must follow the run's end. Run on every decide of an ended run, so a decide that died
   * after its commit (or whose status writes landed before it died) still gets it done on its
   * re-run; removal runs it too, for a run whose decide will find it gone.
   */
  async follow(run: WorkflowRecord): Promise<void> {
    await this.unqueue(run);
    for (const task of run.tasks) {
      // A type that follows a child run owns it: the child ends with the canceled task.
      const ownsChild = this.deps.registry.get(task.workflowTask.type).childWorkflow === true;
      if (ownsChild && task.status === 'CANCELED' && task.subWorkflowId) {
        await this.terminateChild(
          task.subWorkflowId,
          `Parent workflow ${run.workflowId} ended: ${run.status}`,
        );
      }
    }
    if (run.parentWorkflowId && run.parentWorkflowTaskId) await this.notifyParent(run);
    // The failure workflow's id derives from the run, so starting it again is a no-op.
    if (run.endedByEngine) await this.startFailureWorkflow(run);
    for (const hook of this.deps.onRunEnded ?? []) await hook(run);
  }

  /**
   * Takes the queue entries of an ended run's worker tasks that ended without a worker off their
   * queues, as Conductor removes a canceled task's entry when its run ends: a task canceled by the
   * end (terminate, a failure, a timeout, remove) or timed out waiting for a poll. Their entries
   * would otherwise count in the queue sizes until a poll met and dropped them. A task a worker
   * claimed has no entry left; removing an absent entry does nothing, so this is idempotent. The
   * run's tasks are its working set (every open task when it ended); an entry left behind by a crash
   * before this ran is removed by the next decide of the run, or dropped by the next poll that meets
   * it (the claim finds its row over).
   */
  async unqueue(run: WorkflowRecord): Promise<void> {
    const entries = run.tasks
      .filter(
        (task) =>
          (task.status === 'CANCELED' || task.status === 'TIMED_OUT') &&
          this.deps.registry.get(task.workflowTask.type).kind === 'worker',
      )
      .map(queueEntryOf);
    if (entries.length > 0) await this.deps.queue.removeAll(entries);
  }

  /**
   * Does what follows the run's end if that may still be to do (endPending: a terminate whose
   * decide has not run), for an operation that would otherwise leave it undone (reopening the run,
   * removing it). Not part of every change an operation makes: the engine's own terminate of a
   * child would then tell the parent, whose decide terminates the child again, and so on.
   */
  async followPending(run: WorkflowRecord): Promise<void> {
    if (endPending(run)) await this.follow(run);
  }

  /**
   * Ends a child run whose task was canceled (a decide's DecideResult.terminateChildren, or its
   * parent's end); false when it is gone or over already. Its own decide then does what follows
   * its end.
   */
  terminateChild(workflowId: string, reason: string): Promise<boolean> {
    return this.deps.terminateRun(workflowId, reason);
  }

  /** What else goes with a run whose record and task rows were deleted (the run-removed hooks). */
  async removed(workflowId: string): Promise<void> {
    for (const hook of this.deps.onRunRemoved ?? []) await hook(workflowId);
  }

  /** Starts the failure workflow of a run the engine ended unsuccessfully; a failure to is logged. */
  private async startFailureWorkflow(run: WorkflowRecord): Promise<void> {
    if (run.status !== 'COMPLETED' && run.workflowDefinition.failureWorkflow) {
      try {
        await this.deps.startFailureWorkflow(run);
      } catch (error) {
        this.deps.logger.warn('failure workflow not started', {
          workflowId: run.workflowId,
          error: errorMessage(error),
        });
      }
    }
  }

  /** Updates the parent's task from its ended child (TaskType.onChildEnded), then asks for the parent's decide. */
  private async notifyParent(child: WorkflowRecord): Promise<void> {
    const { executions, decisions, registry } = this.deps;
    const parentId = child.parentWorkflowId as string;
    try {
      await retryOnConflict(async () => {
        const task = await executions.getTask(parentId, child.parentWorkflowTaskId as string);
        if (!task || isTerminalTask(task.status)) return;
        const updated = registry
          .get(task.workflowTask.type)
          .onChildEnded?.(task, child, this.deps.clock.now());
        if (updated) await executions.updateTask(updated, task.rev);
      });
    } catch (error) {
      // Still changing after every attempt: the parent's own decide catches up on the child's end.
      if (!(error instanceof VersionConflictError)) throw error;
    }
    await decisions.requestForTasks(parentId, [child.parentWorkflowTaskId as string]);
  }
}
