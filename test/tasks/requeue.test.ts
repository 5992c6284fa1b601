/**
 * Requeue (TaskService.requeue, POST /api/tasks/queue/requeue/{taskType}): every non-terminal
 * worker task of the type is pushed again, found through the task rows rather than the queue: a
 * SCHEDULED task whose queue entry is gone is queued again, an IN_PROGRESS one is handed out again,
 * finished ones and other types are left alone.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { queueEntryOf } from '../../lib/engine/queues.ts';
import { type EngineHarness, engineHarness } from '../helpers/engine.ts';
import { simpleTask, workflowDef } from '../helpers/fixtures.ts';

describe('requeue', () => {
  let harness: EngineHarness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  it('re-pushes a scheduled task whose queue entry was lost, and an in-progress one', async () => {
    const h = await engineHarness();
    harness = h;
    await h.register(workflowDef({ name: 'rq_wf', tasks: [simpleTask('rq')] }));
    await h.register(workflowDef({ name: 'rq_other_wf', tasks: [simpleTask('rq_other')] }));
    const lost = await h.start('rq_wf');
    const taken = await h.start('rq_wf');
    const done = await h.start('rq_wf');
    await h.start('rq_other_wf');
    // One entry disappears from the queue (as if its write was lost); one task is polled; one is completed.
    const lostTask = await h.task(lost, 'rq');
    await h.stores.queue.remove(queueEntryOf(lostTask as NonNullable<typeof lostTask>));
    const polled = await h.poll('rq_task');
    const finished = await h.poll('rq_task');
    expect([polled?.workflowInstanceId, finished?.workflowInstanceId].sort()).toEqual([taken, done].sort());
    await h.complete(finished as NonNullable<typeof finished>);
    expect(await h.poll('rq_task')).toBeUndefined();

    expect(await h.services.engine.tasks.requeue('rq_task')).toBe(2);
    const again = [await h.poll('rq_task'), await h.poll('rq_task')];
    expect(again.map((t) => t?.workflowInstanceId).sort()).toEqual([lost, polled?.workflowInstanceId].sort());
    expect(await h.poll('rq_task')).toBeUndefined();
    expect(await h.stores.queue.size('rq_other_task')).toBe(1);
  });
});
