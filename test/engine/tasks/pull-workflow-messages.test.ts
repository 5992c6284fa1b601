// PULL_WORKFLOW_MESSAGES' exactly-once hand-off, through its start hook over the message store: a
// start re-run after a crash answers the same claim, racing starts of one task deliver each message
// once (the losing answer's extra claims return to the queue), and a decide that crashed after the
// task completed never hands its messages to the next pull.
import { describe, expect, it } from 'vitest';
import type { AsyncTaskResult } from '../../../lib/engine/task-type.ts';
import { batchSizeOf, pullWorkflowMessagesTask } from '../../../lib/engine/tasks/pull-workflow-messages.ts';
import type { WorkflowMessage } from '../../../lib/messages/ports.ts';
import { sequenceOf } from '../../../lib/messages/service.ts';
import { MemoryMessageStore } from '../../../lib/messages/store/memory.ts';
import type { TaskRecord, WorkflowRecord } from '../../../lib/model/execution.ts';

const WF = 'wf-1';
const NOW = 1_700_000_000_000;

function setup() {
  const messages = new MemoryMessageStore();
  /** Task rows as the executor would keep them: the first answer reported wins. */
  const rows = new Map<string, Pick<TaskRecord, 'status' | 'outputData'>>();
  const type = pullWorkflowMessagesTask({
    messages,
    executions: { getTask: async (_wf, taskId) => rows.get(taskId) as TaskRecord | undefined },
    maxBatchSize: 100,
  });
  let n = 0;
  const push = async (count: number) => {
    for (let i = 0; i < count; i++) {
      n += 1;
      const seq = sequenceOf(NOW + n);
      const m = { id: `m${n}`, workflowId: WF, payload: { n }, receivedAt: '', seq, expiresAt: NOW + 60_000 };
      await messages.add(m, 1000, NOW);
      await messages.confirm(WF, seq);
    }
  };
  const start = (taskId: string, batchSize = 3): Promise<AsyncTaskResult> => {
    rows.set(taskId, rows.get(taskId) ?? { status: 'IN_PROGRESS', outputData: {} });
    const task = { taskId, workflowInstanceId: WF, inputData: { batchSize } } as unknown as TaskRecord;
    return (
      type.start?.({ task, run: {} as WorkflowRecord, now: NOW }) ?? Promise.reject(new Error('no start'))
    );
  };
  /** Reports like reportAsyncResult: a terminal row keeps its first answer. */
  const report = (taskId: string, result: AsyncTaskResult) => {
    const row = rows.get(taskId);
    if (row && row.status !== 'IN_PROGRESS') return;
    rows.set(taskId, { status: result.status, outputData: result.outputData ?? {} });
  };
  const delivered = (taskId: string) =>
    ((rows.get(taskId)?.outputData?.messages as WorkflowMessage[] | undefined) ?? []).map((m) => m.id);
  return { messages, push, start, report, delivered };
}

describe('PULL_WORKFLOW_MESSAGES hand-off', () => {
  it('waits (IN_PROGRESS) on an empty queue and clamps batchSize', async () => {
    const { start } = setup();
    expect((await start('t1')).status).toBe('IN_PROGRESS');
    expect(batchSizeOf({}, 100)).toBe(1);
    expect(batchSizeOf({ batchSize: 0 }, 100)).toBe(1);
    expect(batchSizeOf({ batchSize: 500 }, 100)).toBe(100);
    expect(batchSizeOf({ batchSize: 'x' }, 100)).toBe(1);
  });

  it('answers the same claim when a start is re-run after a crash', async () => {
    const { push, start } = setup();
    await push(2);
    const first = await start('t1'); // crash: never reported
    await push(2);
    const again = await start('t1');
    const ids = (r: AsyncTaskResult) =>
      ((r.outputData?.messages ?? []) as WorkflowMessage[]).map((m) => m.id);
    expect(ids(first)).toEqual(['m1', 'm2']);
    expect(ids(again).slice(0, 2)).toEqual(['m1', 'm2']);
    expect(ids(again)).toHaveLength(3);
  });

  it('delivers each message once when two starts of one task race', async () => {
    const { messages, push, start, report, delivered } = setup();
    await push(5);
    const [a, b] = await Promise.all([start('t1'), start('t1')]);
    report('t1', a);
    report('t1', b); // loses: the row is already COMPLETED
    // On DynamoDB the two claims interleave, so the losing start may hold one more message than the
    // answer kept: that extra claim must go back to the queue, not vanish.
    expect((await messages.claim(WF, 't1', NOW, 4)).map((m) => m.id)).toEqual(['m1', 'm2', 'm3', 'm4']);
    const next: string[] = [];
    for (const taskId of ['t2', 't3', 't4']) {
      const result = await start(taskId);
      report(taskId, result);
      next.push(...delivered(taskId));
    }
    expect(delivered('t1')).toEqual(['m1', 'm2', 'm3']);
    const all = [...delivered('t1'), ...next];
    expect(all.sort()).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
  });

  it('never re-delivers the messages of a pull whose decide crashed after it completed', async () => {
    const { push, start, report, delivered } = setup();
    await push(2);
    report('t1', await start('t1')); // completed; the decide that would follow it crashed
    await push(1);
    // The re-run decide does not start t1 again (terminal); the next pull settles its claim.
    report('t2', await start('t2'));
    expect(delivered('t1')).toEqual(['m1', 'm2']);
    expect(delivered('t2')).toEqual(['m3']);
    expect((await start('t3')).status).toBe('IN_PROGRESS');
  });
});
