/**
 * Reset callbacks (docs/conductor-compat.md §1.6, §4.7): every SCHEDULED worker task waiting out a
 * `callbackAfterSeconds` (a worker answered IN_PROGRESS with a callback) gets the callback set to 0
 * and its queue entry made visible now, so the next poll hands it out.
 */
import { pushRequeued, type Requeued } from '../../engine/queues.ts';
import { ConflictError } from '../../model/errors.ts';
import { isTerminalWorkflow } from '../../model/execution.ts';
import type { OperationDeps } from './deps.ts';

/** 404 unknown, 409 when the run is over. */
export async function resetCallbacks(deps: OperationDeps, workflowId: string): Promise<void> {
  const { registry } = deps;
  // The rows of the attempt that committed (the change runs again after a lost race).
  let reset: Requeued[] = [];
  const committed = await deps.mutator.mutate(
    workflowId,
    (run, openRows, now) => {
      if (isTerminalWorkflow(run.status)) {
        throw new ConflictError(
          `Workflow is ${run.status}; the callbacks of a ${run.status} workflow cannot be reset`,
        );
      }
      reset = openRows
        .filter(
          (row) =>
            row.status === 'SCHEDULED' &&
            row.callbackAfterSeconds > 0 &&
            registry.get(row.workflowTask.type).kind === 'worker',
        )
        .map((row) => ({
          before: row,
          after: { ...row, callbackAfterSeconds: 0, updateTime: now, visibleAt: now },
        }));
      return reset.length === 0
        ? undefined
        : { run: { ...run, updateTime: now }, tasks: reset.map((r) => r.after) };
    },
    { mustExist: true },
  );
  if (!committed) return;
  // After the commit: an entry made visible earlier would only be handed out sooner than the row
  // says. A crash before this push leaves the old, later entry: the task is handed out at its old
  // time, as before the call (a claim drops only entries earlier than the row says).
  await pushRequeued(deps.queue, reset);
}
