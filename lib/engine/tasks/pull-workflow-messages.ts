/**
 * PULL_WORKFLOW_MESSAGES (docs/conductor-compat.md §5.23, docs/api.md "Events"): completes with up to
 * `batchSize` messages of the run's queue (`{messages, count}`, oldest first). With none queued a
 * blocking pull (the default) stays IN_PROGRESS without polling: `start` runs again on every decide
 * of the run while the task is open, and a push asks for a decide.
 *
 * Exactly-once hand-off: messages are claimed for the task (a conditional write per message), so
 * two starts of one task (racing decides, a re-run after a crash) share one claim and no other
 * pull sees them; whichever answer the task row keeps is what was delivered. A later pull settles
 * an earlier pull's claim once that task is over: what its output holds leaves the queue, the rest
 * (claimed by a start whose answer lost) returns. A claimer whose row is gone (a DO_WHILE keepLastN
 * trim) counts as having delivered everything it claimed: never twice, at worst a lost extra.
 */

import { isTerminalTask } from '../../model/execution.ts';
import { pullWorkflowMessagesSpec } from '../../model/task-types/pull-workflow-messages.ts';
import type { TaskRows } from '../../store/ports.ts';
import type { AsyncTaskResult, TaskType } from '../task-type.ts';
import type { MessageClaims, QueuedMessage, WorkflowMessage } from '../workflow-messages.ts';

export interface PullDeps {
  messages: MessageClaims;
  executions: Pick<TaskRows, 'getTask'>;
  maxBatchSize: number;
}

const view = ({ id, workflowId, payload, receivedAt }: QueuedMessage): WorkflowMessage => ({
  id,
  workflowId,
  payload,
  receivedAt,
});

/** `batchSize` clamped to 1..max (default 1, as in Conductor). */
export function batchSizeOf(input: Record<string, unknown>, max: number): number {
  const n = Number(input.batchSize ?? 1);
  if (!Number.isFinite(n)) return 1;
  return Math.min(max, Math.max(1, Math.floor(n)));
}

const isBlocking = (input: Record<string, unknown>) => input.blocking !== false && input.blocking !== 'false';

const idsOf = (output: Record<string, unknown> | undefined): string[] => {
  const messages = output?.messages;
  if (!Array.isArray(messages)) return [];
  return messages.map((m) => String((m as { id?: unknown }).id));
};

export function pullWorkflowMessagesTask(deps?: PullDeps): TaskType {
  async function settleOthers(workflowId: string, taskId: string): Promise<void> {
    if (!deps) return;
    for (const [claimer, claimed] of await deps.messages.claims(workflowId)) {
      if (claimer === taskId) continue;
      const row = await deps.executions.getTask(workflowId, claimer);
      if (row && !isTerminalTask(row.status)) continue;
      const delivered = !row
        ? claimed.map((m) => m.id)
        : row.status === 'COMPLETED'
          ? idsOf(row.outputData)
          : [];
      await deps.messages.settle(workflowId, claimer, delivered);
    }
  }

  return {
    ...pullWorkflowMessagesSpec,
    startOnEveryDecide: true,
    schedule: (ctx, request) => [ctx.createTask(request, { status: 'IN_PROGRESS', startTime: ctx.now })],
    async start({ task, now }): Promise<AsyncTaskResult> {
      if (!deps) {
        return {
          status: 'FAILED_WITH_TERMINAL_ERROR',
          reasonForIncompletion:
            'PULL_WORKFLOW_MESSAGES needs the workflow message queue, which this engine lacks',
        };
      }
      const workflowId = task.workflowInstanceId;
      await settleOthers(workflowId, task.taskId);
      const limit = batchSizeOf(task.inputData, deps.maxBatchSize);
      const messages = await deps.messages.claim(workflowId, task.taskId, now, limit);
      if (messages.length === 0 && isBlocking(task.inputData)) return { status: 'IN_PROGRESS' };
      return { status: 'COMPLETED', outputData: { messages: messages.map(view), count: messages.length } };
    },
  };
}
