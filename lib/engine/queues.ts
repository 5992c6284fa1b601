/** Worker queue names (`[domain:]taskType`, docs/conductor-compat.md §4.1) and the entry of a task row. */
import type { TaskRecord } from '../model/execution.ts';
import { type QueueEntry, sameQueueKey, type TaskQueue } from '../store/ports.ts';

export function queueName(taskType: string, domain?: string): string {
  return domain ? `${domain}:${taskType}` : taskType;
}

export function queueNameOf(task: Pick<TaskRecord, 'taskType' | 'domain'>): string {
  return queueName(task.taskType, task.domain);
}

/**
 * The queue entry a worker task row's last push wrote: every push and remove of a row's entry goes
 * through here, so the two always name one key. A row queued before rows kept their entry's
 * visibleAt gives its old-layout entry (`legacy`, found by task id).
 */
export function queueEntryOf(
  task: Pick<
    TaskRecord,
    | 'taskType'
    | 'domain'
    | 'taskId'
    | 'workflowInstanceId'
    | 'workflowPriority'
    | 'visibleAt'
    | 'updateTime'
    | 'callbackAfterSeconds'
  >,
): QueueEntry {
  const entry: QueueEntry = {
    queueName: queueNameOf(task),
    taskId: task.taskId,
    workflowId: task.workflowInstanceId,
    priority: task.workflowPriority,
    visibleAt: task.visibleAt ?? task.updateTime + task.callbackAfterSeconds * 1000,
  };
  if (task.visibleAt === undefined) entry.legacy = true;
  return entry;
}

/**
 * Whether an entry would hand its task out before its row says (the task was queued again with a
 * later visibility): a claim drops it. An entry visible later than the row names is still served,
 * only late: it is what a crash leaves between a row committing an earlier visibility and the push
 * of that entry (reset-callbacks), and dropping it would leave the task in no queue. A row from
 * before rows named their entry's visibility accepts any entry.
 */
export const superseded = (task: Pick<TaskRecord, 'visibleAt'>, entry: QueueEntry): boolean =>
  task.visibleAt !== undefined && entry.visibleAt < task.visibleAt;

/** A task row before and after a change that queues it (again): its status is SCHEDULED after. */
export interface Requeued {
  before: TaskRecord;
  after: TaskRecord;
}

/**
 * Pushes the entries of rows queued again, then removes the entries they had before, where those
 * were under another key: only a SCHEDULED row has one (a claim removes its task's entry). An old
 * entry left by a crash between the two is dropped by the claim when it is earlier than the row
 * says (superseded), and served late, never early, when it is later.
 */
export async function pushRequeued(queue: TaskQueue, rows: readonly Requeued[]): Promise<void> {
  if (rows.length === 0) return;
  await queue.push(rows.map((row) => queueEntryOf(row.after)));
  for (const { before, after } of rows) {
    if (before.status !== 'SCHEDULED') continue;
    const previous = queueEntryOf(before);
    if (previous.legacy || !sameQueueKey(previous, queueEntryOf(after))) await queue.remove(previous);
  }
}
