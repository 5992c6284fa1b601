/**
 * What a decide reads before the decider sees the run: the rows of its open tasks (all of them, or
 * only those its request names), the outputs of finished loops, and the ends of children whose
 * parent was not told. Its own module so the executor keeps to applying decisions; the rules on
 * which reads a run's view may skip are in Executor.decide (lib/engine/ARCHITECTURE.md).
 */
import type { Clock } from '../model/clock.ts';
import { isTerminalTask, type TaskRecord, type WorkflowRecord, withRow } from '../model/execution.ts';
import type { ExecutionStore } from '../store/ports.ts';
import { rowsOfRun } from '../store/run-rows.ts';
import type { TaskTypeRegistry } from './registry.ts';

/**
 * Open tasks up to which a decide reads every row whatever its request names, unless the run's
 * decides read in part already: a few more reads cost less than what a run read in part pays (its
 * full-read wake-up: a timer message, a decide, two index writes), so small forks are read whole
 * and only wide ones in part (to the end of the fork, or their next full read).
 */
export const WHOLE_READ_MAX_OPEN = 4;

export interface DecideReadDeps {
  executions: ExecutionStore;
  registry: TaskTypeRegistry;
  clock: Clock;
}

/**
 * The rows of `open`. A decide asked for by named rows (`changed`: its first attempt) reads them
 * eventually consistent (half the read units on DynamoDB), then fresh again each row that answer
 * cannot be trusted for:
 * - a row missing, or older than the revision the run's record holds of it (an operation that
 *   reopened a task wrote its row, then committed that revision);
 * - a named row that shows no news (not over, or over and taken in already): the request says it
 *   changed, and a stale copy would make the decide commit nothing and the request be lost.
 * What remains may be an older view of an unnamed row, which §3 of ARCHITECTURE.md already allows
 * (every write of a row is conditional on the revision read; an older view's deadlines are no
 * earlier), or a named row's news: a task that ended stays ended until an operation reopens it,
 * which the record's revision shows. A plain request and a retry after a conflict read fresh.
 */
async function readRows(
  deps: DecideReadDeps,
  record: WorkflowRecord,
  open: readonly TaskRecord[],
  changed: readonly string[] | undefined,
): Promise<Map<string, TaskRecord>> {
  const ids = open.map((t) => t.taskId);
  if (changed === undefined) {
    return new Map((await deps.executions.getTasks(record.workflowId, ids)).map((r) => [r.taskId, r]));
  }
  const rows = new Map(
    (await deps.executions.getTasks(record.workflowId, ids, { fresh: false })).map((r) => [r.taskId, r]),
  );
  const named = new Set(changed);
  const doubtful = open.filter((task) => {
    const row = rows.get(task.taskId);
    if (!row || row.rev < task.rev) return true;
    return named.has(task.taskId) && !(isTerminalTask(row.status) && !task.executed);
  });
  if (doubtful.length > 0) {
    const fresh = await deps.executions.getTasks(
      record.workflowId,
      doubtful.map((t) => t.taskId),
    );
    for (const task of doubtful) rows.delete(task.taskId);
    for (const row of fresh) rows.set(row.taskId, row);
  }
  return rows;
}

/**
 * Task rows are the truth for what workers and the API change (status, output, times); the run
 * record keeps the decider's own bookkeeping (executed, retried, membership) for each task.
 * With `changed`, only those of the open tasks' rows are read, once the run has more than
 * WHOLE_READ_MAX_OPEN open tasks or is read in part already. Returns the ids of the rows read,
 * or undefined when every open task's row was.
 */
export async function readTasks(
  deps: DecideReadDeps,
  record: WorkflowRecord,
  changed: readonly string[] | undefined,
): Promise<ReadonlySet<string> | undefined> {
  let open = record.tasks.filter((t) => !t.executed);
  if (open.length === 0) return undefined;
  let read: Set<string> | undefined;
  if (changed && (open.length > WHOLE_READ_MAX_OPEN || record.partialSince !== undefined)) {
    const named = new Set(changed);
    const some = open.filter((t) => named.has(t.taskId));
    if (some.length < open.length) {
      open = some;
      read = new Set(some.map((t) => t.taskId));
    }
  }
  const rows =
    open.length === 0 ? new Map<string, TaskRecord>() : await readRows(deps, record, open, changed);
  record.tasks = record.tasks.map((task) => {
    const row = rows.get(task.taskId);
    return row ? withRow(task, row) : task;
  });
  await gatherLoopOutputs(deps, record);
  // A child that ended while its parent was not told (a notice that kept conflicting, or one
  // lost with a crash) is caught up here from its child's record, for the rows this decide read:
  // so a fan-out of N children reads no N children per decide, and a lost notice waits for a
  // decide that reads every row (a plain or due one: the run's wake-up comes FULL_READ_AFTER_MS
  // after its decides began to read only named rows, partialReadDeadline).
  for (const task of record.tasks) {
    const onChildEnded = deps.registry.get(task.workflowTask.type).onChildEnded;
    if (!onChildEnded || isTerminalTask(task.status) || !task.subWorkflowId) continue;
    if (read && !read.has(task.taskId)) continue;
    const child = await deps.executions.getWorkflow(task.subWorkflowId);
    const updated = child && onChildEnded(task, child, deps.clock.now());
    if (!updated) continue;
    await deps.executions.updateTask(updated, task.rev);
    Object.assign(task, updated);
  }
  return read;
}

/**
 * A DO_WHILE that finished its last iteration waits ('gathering') for every iteration's output,
 * which the run record no longer holds: rebuilt here from the task rows, once per loop.
 */
async function gatherLoopOutputs(deps: DecideReadDeps, record: WorkflowRecord): Promise<void> {
  const waiting = record.tasks.filter((t) => t.loopEnd === 'gathering');
  if (waiting.length === 0) return;
  const rows = await rowsOfRun(deps.executions, record);
  for (const task of waiting) {
    const expand = deps.registry.get(task.workflowTask.type).expandOutput;
    if (expand) task.outputData = expand(task, rows, record.workflowDefinition).outputData;
    task.loopEnd = 'gathered';
  }
}
