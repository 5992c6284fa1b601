/**
 * Terminate (docs/conductor-compat.md §1.6 DELETE /workflow/{id}, §4.7; also a canceled
 * SUB_WORKFLOW's child): open tasks are canceled first and only then is the run TERMINATED
 * (RunMutator's write order), so a worker update never finds a completed task in a run that is
 * over. A crash in between leaves canceled tasks in a running run, which the next decide ends as
 * TERMINATED anyway. The decide that follows the commit terminates the children of canceled
 * SUB_WORKFLOW tasks and tells the parent (RunEnd.follow, lib/engine/run-end.ts). The commit
 * leaves the run a wake-up due at once, which that decide clears when it is done: a crash before
 * the decide it asks for still gets it (the sweeper). The API's terminate also takes the canceled
 * worker tasks' queue entries off their queues itself, right after its commit and before it asks for
 * the decide (RunEnd.unqueue), so the queue sizes show it once the request is answered; the decide
 * does it again (idempotent), and it is what does it after a crash in between.
 */
import { ConflictError } from '../../model/errors.ts';
import { isTerminalTask, isTerminalWorkflow, type TaskRecord, withRow } from '../../model/execution.ts';
import type { OperationDeps } from './deps.ts';
import type { RunChange, RunMutator } from './run-mutator.ts';

export interface TerminateOptions {
  /** Start the definition's failure workflow, as an engine-ended run would (Orkes; default false). */
  triggerFailureWorkflow?: boolean;
}

/**
 * The API's terminate: COMPLETED cannot be terminated (409), TERMINATED is a no-op, and FAILED or
 * TIMED_OUT runs become TERMINATED (§3.1). Without a reason the run keeps the one it has.
 */
export function terminateChange(reason: string | undefined, options: TerminateOptions = {}): RunChange {
  return (run, openRows, now) => {
    if (run.status === 'COMPLETED') throw new ConflictError('Cannot terminate a COMPLETED workflow.');
    if (run.status === 'TERMINATED') return undefined;
    const canceled = openRows
      .filter((row) => !isTerminalTask(row.status))
      .map((row) => ({ ...row, status: 'CANCELED' as const, endTime: now, updateTime: now }));
    // The run's own copies of its tasks show what the rows now hold (RunMutator writes each
    // canceled row at its next revision), so the decide after this finds nothing open and only
    // does what follows the end (RunEnd.follow).
    const rows = new Map<string, TaskRecord>(openRows.map((row) => [row.taskId, row]));
    for (const row of canceled) rows.set(row.taskId, { ...row, rev: row.rev + 1 });
    return {
      tasks: canceled,
      run: {
        ...run,
        tasks: run.tasks.map((task) => {
          const row = rows.get(task.taskId);
          return row ? withRow(task, row) : task;
        }),
        status: 'TERMINATED',
        reasonForIncompletion: reason ?? run.reasonForIncompletion,
        endTime: now,
        updateTime: now,
        wakeAt: now,
        wakeArmedAt: undefined,
        // The flag makes the executor start the failure workflow once the run has ended. It is
        // written either way: a FAILED run the engine ended carries it, and terminating that run
        // must not start a second failure workflow unless asked to.
        endedByEngine: options.triggerFailureWorkflow === true,
      },
    };
  };
}

/**
 * Terminates through the API; false when the run was already TERMINATED, whose decide is asked for
 * again all the same (a terminate retried after a crash still gets its parent told). 404 unknown,
 * 409 COMPLETED.
 */
export async function terminate(
  deps: Pick<OperationDeps, 'mutator' | 'runEnd'>,
  workflowId: string,
  reason: string | undefined,
  options: TerminateOptions = {},
): Promise<boolean> {
  const change = terminateChange(reason, options);
  const terminated = await deps.mutator.mutate(workflowId, change, {
    mustExist: true,
    nudge: true,
    afterCommit: (run) => deps.runEnd.unqueue(run),
  });
  return terminated !== undefined;
}

/**
 * The engine's own terminate (children of canceled tasks, through RunEnd.terminateChild): ends a
 * run only while it is still going.
 */
export function terminateRunningChange(reason: string): RunChange {
  const change = terminateChange(reason);
  return (run, openRows, now) => (isTerminalWorkflow(run.status) ? undefined : change(run, openRows, now));
}

/** Ends a run that is still going; false when there is no such run or it is already over. */
export async function terminateRunning(
  mutator: RunMutator,
  workflowId: string,
  reason: string,
): Promise<boolean> {
  return (await mutator.mutate(workflowId, terminateRunningChange(reason))) !== undefined;
}
