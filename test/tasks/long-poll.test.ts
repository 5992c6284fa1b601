/**
 * Long polls woken by queue writes (lib/tasks/publishing-queue.ts, TaskService.poll): a poll that
 * waits is answered by the push of a task to its queue, looking at the queue once before the wait
 * and once after the push (no re-check loop); a push of n tasks wakes n of the polls waiting on
 * the queue, not all of them; a push to another queue or domain does not wake it;
 * a poll with nothing queued ends at its timeout with no task.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStores } from '../../lib/runtime/stores.ts';
import type { Stores } from '../../lib/store/ports.ts';
import { countingQueue } from '../helpers/counting-queue.ts';
import { type EngineHarness, engineHarness } from '../helpers/engine.ts';
import { simpleTask, workflowDef } from '../helpers/fixtures.ts';

/** Memory stores whose queue counts the peeks of each queue name. */
function countingStores(): { stores: Stores; peeks: Map<string, number> } {
  const memory = createMemoryStores();
  const { queue, peeks } = countingQueue(memory.queue);
  return { stores: { ...memory, queue }, peeks };
}

/** Every look reads the queue: the counts below are of looks, not of peeks answered from hints. */
const NO_HINTS = { 'service.tasks.poll.peek-hints': 0 };

describe('long poll', () => {
  let harness: EngineHarness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  it('is answered by the push of a task to its queue, with one look before and one after', async () => {
    const { stores, peeks } = countingStores();
    harness = await engineHarness({ stores, properties: NO_HINTS });
    await harness.register(workflowDef({ name: 'lp_one', tasks: [simpleTask('lp')] }));
    const polling = harness.services.engine.tasks.poll('lp_task', {
      workerId: 'w',
      count: 1,
      timeoutMs: 60_000,
    });
    await new Promise((r) => setImmediate(r));
    expect(peeks.get('lp_task')).toBe(1);
    const workflowId = await harness.start('lp_one');
    const [task] = await polling;
    expect(task?.workflowInstanceId).toBe(workflowId);
    expect(task?.status).toBe('IN_PROGRESS');
    expect(peeks.get('lp_task')).toBe(2);
  });

  it('wakes one waiting poll per task pushed: the others keep waiting without looking, and no push is missed', async () => {
    const { stores, peeks } = countingStores();
    harness = await engineHarness({ stores, properties: NO_HINTS });
    await harness.register(workflowDef({ name: 'lp_many', tasks: [simpleTask('lp')] }));
    const { tasks } = harness.services.engine;
    const answered: string[][] = [];
    const polls = [0, 1, 2].map((n) =>
      tasks.poll('lp_task', { workerId: `w${n}`, count: 1, timeoutMs: 60_000 }).then((got) => {
        answered.push(got.map((t) => t.workflowInstanceId));
        return got;
      }),
    );
    await new Promise((r) => setImmediate(r));
    expect(peeks.get('lp_task')).toBe(3);
    const first = await harness.start('lp_many');
    await expect.poll(() => answered.length).toBe(1);
    expect(answered[0]).toEqual([first]);
    // One look by the one poll woken; the two others did not look again.
    expect(peeks.get('lp_task')).toBe(4);
    const more = [await harness.start('lp_many'), await harness.start('lp_many')];
    const got = (await Promise.all(polls)).map(([t]) => t?.workflowInstanceId);
    expect(got.sort()).toEqual([first, ...more].sort());
  });

  it('is not woken by a push to another queue or to another domain of its type', async () => {
    const { stores, peeks } = countingStores();
    harness = await engineHarness({ stores, properties: NO_HINTS });
    await harness.register(workflowDef({ name: 'lp_other', tasks: [simpleTask('lp_other')] }));
    const polling = harness.services.engine.tasks.poll('lp_task', {
      workerId: 'w',
      count: 1,
      timeoutMs: 300,
    });
    const inDomain = harness.services.engine.tasks.poll('lp_other_task', {
      workerId: 'w',
      domain: 'blue',
      count: 1,
      timeoutMs: 300,
    });
    await harness.start('lp_other');
    expect(await polling).toEqual([]);
    expect(await inDomain).toEqual([]);
    expect(peeks.get('lp_task')).toBe(1);
    expect(peeks.get('blue:lp_other_task')).toBe(1);
  });

  it('ends at its timeout with no task when nothing is queued', async () => {
    harness = await engineHarness();
    expect(await harness.services.engine.tasks.poll('lp_none', { count: 5, timeoutMs: 20 })).toEqual([]);
  });
});
