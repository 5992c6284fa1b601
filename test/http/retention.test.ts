/**
 * Retention as the server applies it (README "Operations", defaults from lib/config/properties.ts):
 * task log lines go after 30 days, a worker's poll data 7 days after its last poll, schedule
 * execution records 30 days after their scheduled time. The server's clock is a ManualClock, so
 * no test time passes; the store never deletes (memory), so what disappears was hidden by reads.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../lib/model/clock.ts';
import { uniqueName, worker } from '../helpers/fixtures.ts';
import { useTestServer } from '../helpers/server.ts';
import { ExecutionApi, expectJson, expectNoContent } from './execution-api.ts';

const DAY = 86_400_000;
const clock = new ManualClock(Date.UTC(2026, 0, 1));
const endpoint = useTestServer({}, { clock });
const api = new ExecutionApi(endpoint);

describe('retention with the default properties', () => {
  it("drops a task's log lines 30 days after they were written", async () => {
    const task = uniqueName('logged');
    const name = uniqueName('logs');
    await api.registerWorkflow({ name, version: 1, tasks: [worker(task)] });
    await api.start(name);
    const polled = await api.pollEventually(task);
    expect((await api.send('POST', `/api/tasks/${polled.taskId}/log`, 'first line')).status).toBe(200);
    clock.advance(30 * DAY - 1);
    expect(
      await expectJson<{ log: string }[]>(await api.get(`/api/tasks/${polled.taskId}/log`)),
    ).toMatchObject([{ log: 'first line' }]);
    clock.advance(1);
    await expectNoContent(await api.get(`/api/tasks/${polled.taskId}/log`));
  });

  it("forgets a worker's poll data 7 days after its last poll", async () => {
    const task = uniqueName('polled');
    await api.poll(task, 'worker-1');
    const pollData = async () =>
      expectJson<{ workerId: string }[]>(await api.get(`/api/tasks/queue/polldata?taskType=${task}`));
    expect((await pollData()).map((p) => p.workerId)).toEqual(['worker-1']);
    clock.advance(7 * DAY);
    expect(await pollData()).toEqual([]);
  });

  it('hides a schedule execution record 30 days after its scheduled time', async () => {
    const schedules = endpoint.server.services.stores.schedules;
    const scheduledTime = clock.now();
    await schedules.claimExecution({
      executionId: uniqueName('execution'),
      scheduleName: 's',
      scheduledTime,
      executionTime: scheduledTime,
      workflowName: 'wf',
      startWorkflowRequest: { name: 'wf' },
      state: 'POLLED',
      zoneId: 'UTC',
      cronExpression: '0 * * * * *',
    });
    const ids = async () =>
      (await schedules.recentExecutions(1000)).filter((e) => e.scheduledTime === scheduledTime);
    expect(await ids()).toHaveLength(1);
    clock.advance(30 * DAY);
    expect(await ids()).toEqual([]);
  });
});
