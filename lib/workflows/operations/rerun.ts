/**
 * Rerun (docs/conductor-compat.md §4.7, POST /workflow/{id}/rerun with a RerunWorkflowRequest): an
 * ended run runs again under the same id. Without `reRunFromTaskId` it starts over like a restart,
 * with the new `workflowInput` / `correlationId` if given. With it, the task is looked up in the
 * run and, recursively, in its sub-workflows; in the run that holds it, that task and every task
 * after it (higher seq) are deleted, the next decide schedules the task anew (with `taskInput` as
 * its input if given: a SUB_WORKFLOW gets a new child, a worker task is queued, a system task runs
 * at once), the run's other unsuccessful tasks run again, the loops around the task go back to
 * its iteration, and the parents of a sub-workflow that reruns are revived.
 *
 * The run that holds the task commits first and its parents after it. A crash in between leaves
 * the run named in the request ended, and asked again the rerun finds the task already rerun
 * (WorkflowRecord.rerunOfTaskId) and only revives the parents.
 */
import { ConflictError, ValidationError } from '../../model/errors.ts';
import { isTerminalWorkflow, type TaskRecord, type WorkflowRecord } from '../../model/execution.ts';
import { specOf } from '../../model/task-types/index.ts';
import { rowsOfRun } from '../../store/run-rows.ts';
import type { OperationDeps } from './deps.ts';
import {
  currentTasks,
  isRetryableStatus,
  markForRetry,
  reopenedRun,
  reopenedTask,
  reviveParents,
  runToReopen,
} from './reopen.ts';
import { freshStartChange, notTerminal } from './restart.ts';
import type { RunChange, RunMutator } from './run-mutator.ts';

/** Conductor's RerunWorkflowRequest (reRunFromWorkflowId is accepted and not used: the path names the run). */
export interface RerunRequest {
  reRunFromWorkflowId?: string;
  workflowInput?: Record<string, unknown>;
  reRunFromTaskId?: string;
  taskInput?: Record<string, unknown>;
  correlationId?: string;
}

const notFound = (taskId: string) => new ValidationError(`Task ${taskId} not found`);

/** The change of the run holding the task a rerun starts from. */
export function rerunFromChange(taskId: string, taskInput?: Record<string, unknown>): RunChange {
  return (run, rows, now) => {
    if (!isTerminalWorkflow(run.status)) throw notTerminal(run, 'rerun');
    // A rerun that died after deleting the rows finds the task in the record still.
    const target =
      rows.find((row) => row.taskId === taskId) ?? run.tasks.find((task) => task.taskId === taskId);
    if (!target) throw notFound(taskId);
    const byId = new Map(rows.map((row) => [row.taskId, row]));
    // The loops the task runs in go back to its iteration.
    const loops = new Set<string>();
    for (let up = target.parentTaskId; up !== undefined; up = byId.get(up)?.parentTaskId) loops.add(up);
    const kept = currentTasks(run, rows).filter((task) => task.seq < target.seq);
    const rewound: TaskRecord[] = [];
    const working = kept.map((task) => {
      if (!loops.has(task.taskId) || !specOf(task.workflowTask.type).loop) return task;
      const loop = reopenedTask(task, now);
      loop.outputData = { ...loop.outputData, iteration: target.iteration };
      rewound.push(loop);
      return { ...loop, rev: task.rev + 1 };
    });
    const others = working.filter((task) => !task.retried && isRetryableStatus(task.status));
    const { edit, retryIds } = markForRetry({ ...run, tasks: working }, working, others, new Set(), now);
    return {
      deleteTaskIds: rows.filter((row) => row.seq >= target.seq).map((row) => row.taskId),
      tasks: [...rewound, ...(edit.tasks ?? [])],
      run: {
        ...reopenedRun(edit.run, now),
        epoch: (run.epoch ?? 0) + 1,
        retryTaskIds: retryIds,
        rerunFrom: {
          ref: target.workflowTask.taskReferenceName,
          iteration: target.iteration,
          parentTaskId: target.parentTaskId,
          input: taskInput,
        },
        rerunOfTaskId: taskId,
      },
    };
  };
}

export async function rerun(deps: OperationDeps, workflowId: string, request: RerunRequest): Promise<string> {
  const { mutator } = deps;
  const run = await runToReopen(deps, workflowId);
  if (!isTerminalWorkflow(run.status)) throw notTerminal(run, 'rerun');
  const taskId = request.reRunFromTaskId;
  if (taskId === undefined) {
    const start = { input: request.workflowInput, correlationId: request.correlationId };
    const committed = await mutator.mutate(workflowId, freshStartChange('rerun', start), { allRows: true });
    if (committed) await reviveParents(mutator, committed);
    return workflowId;
  }
  const found = await locate(mutator, run, taskId);
  if (!found) throw notFound(taskId);
  if (found.done) {
    await reviveParents(mutator, found.run);
    return workflowId;
  }
  const committed = await mutator.mutate(found.run.workflowId, rerunFromChange(taskId, request.taskInput), {
    allRows: true,
  });
  if (!committed) throw new ConflictError(`Workflow ${found.run.workflowId} is gone`);
  await reviveParents(mutator, committed);
  return workflowId;
}

/**
 * The run holding the task, searching sub-workflows depth first; `done` when a sub-workflow was
 * already rerun from it by a rerun that died before reviving its parents.
 */
async function locate(
  mutator: RunMutator,
  run: WorkflowRecord,
  taskId: string,
): Promise<{ run: WorkflowRecord; done: boolean } | undefined> {
  const rows = await rowsOfRun(mutator.executions, run);
  const holds = (task: TaskRecord) => task.taskId === taskId;
  if (rows.some(holds) || (isTerminalWorkflow(run.status) && run.tasks.some(holds)))
    return { run, done: false };
  for (const row of rows) {
    if (!row.subWorkflowId) continue;
    const child = await mutator.executions.getWorkflow(row.subWorkflowId);
    if (!child) continue;
    if (child.rerunOfTaskId === taskId && !isTerminalWorkflow(child.status))
      return { run: child, done: true };
    const found = await locate(mutator, child, taskId);
    if (found) return found;
  }
  return undefined;
}
