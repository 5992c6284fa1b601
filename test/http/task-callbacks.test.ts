/**
 * Delays a worker asks for or a retry imposes (docs/conductor-compat.md §2.7 callbackAfterSeconds,
 * §4.3): the task goes back to SCHEDULED and is not handed out until its time comes. The server
 * runs on a manual clock, so the tests move time instead of waiting for it.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../lib/model/clock.ts';
import { useTestServer } from '../helpers/server.ts';
import { type ApiTask, ExecutionApi, expectJson, expectNoContent } from './execution-api.ts';

const clock = new ManualClock(Date.UTC(2026, 0, 1));
const api = new ExecutionApi(useTestServer({}, { clock }));

async function started(): Promise<{ first: string; second: string; id: string }> {
  const { name, first, second } = await api.registerChain();
  await api.registerTaskDefs([{ name: first, retryCount: 1, retryDelaySeconds: 10, retryLogic: 'FIXED' }]);
  return { first, second, id: await api.start(name) };
}

const task = async (taskId: string) => expectJson<ApiTask>(await api.get(`/api/tasks/${taskId}`));

describe('IN_PROGRESS with callbackAfterSeconds', () => {
  it('puts the task back to SCHEDULED and hands it out only once the callback time has passed', async () => {
    const { first } = await started();
    const polled = await api.pollEventually(first);
    await api.update(polled, 'IN_PROGRESS', { step: 1 }, { callbackAfterSeconds: 30 });

    expect(await task(polled.taskId)).toMatchObject({
      status: 'SCHEDULED',
      callbackAfterSeconds: 30,
      outputData: { step: 1 },
    });
    expect(await api.poll(first)).toBeUndefined();
    clock.advance(29_999);
    expect(await api.poll(first)).toBeUndefined();
    clock.advance(1);
    const again = await api.poll(first);
    expect(again).toMatchObject({ taskId: polled.taskId, status: 'IN_PROGRESS', pollCount: 2 });
  });

  it('hands the task out again at once when no callback is asked for', async () => {
    const { first } = await started();
    const polled = await api.pollEventually(first);
    await api.update(polled, 'IN_PROGRESS');
    expect((await api.poll(first))?.taskId).toBe(polled.taskId);
  });

  it('is answered 204 by update-v2, and the task waits just the same', async () => {
    const { first } = await started();
    const polled = await api.pollEventually(first);
    await expectNoContent(
      await api.send('POST', '/api/tasks/update-v2', {
        taskId: polled.taskId,
        workflowInstanceId: polled.workflowInstanceId,
        status: 'IN_PROGRESS',
        callbackAfterSeconds: 5,
      }),
    );
    const batch = await expectJson<ApiTask[]>(await api.get(`/api/tasks/poll/batch/${first}?timeout=0`));
    expect(batch).toEqual([]);
    clock.advance(5_000);
    expect((await api.poll(first))?.taskId).toBe(polled.taskId);
  });
});

describe('a retry delay', () => {
  it('schedules the retry at once but hands it out only after retryDelaySeconds', async () => {
    const { first, id } = await started();
    const polled = await api.pollEventually(first);
    await api.update(polled, 'FAILED', {}, { reasonForIncompletion: 'flaky' });

    const retry = await api.workflowUntil(id, (run) => run.tasks.find((t) => t.retryCount === 1));
    expect(retry).toMatchObject({ status: 'SCHEDULED', referenceTaskName: 'first' });
    expect(await api.poll(first)).toBeUndefined();
    clock.advance(10_000);
    expect(await api.poll(first)).toMatchObject({ taskId: retry.taskId, retryCount: 1 });
  });
});
