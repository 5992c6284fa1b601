/**
 * Synchronous execution that runs out of time (docs/api.md "Workflow start API", waitForSeconds): the answer
 * is the state so far with signalTimeout, while the run goes on. The server's clock is a ManualClock: the
 * test moves it past the deadline and a commit of the run wakes the waiting request, so no test time passes.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../lib/model/clock.ts';
import { uniqueName, worker } from '../helpers/fixtures.ts';
import { useTestServer } from '../helpers/server.ts';
import { ExecutionApi, expectEmptyOk, expectJson } from './execution-api.ts';

const clock = new ManualClock(Date.now());
const api = new ExecutionApi(useTestServer({}, { clock }));

describe('POST /api/workflow/execute: timeout', () => {
  it('answers the current state with signalTimeout once the wait runs out, and the run goes on', async () => {
    const task = uniqueName('slow');
    const name = uniqueName('timeout');
    await api.registerWorkflow({ name, version: 1, tasks: [worker(task)] });
    const pending = api.send('POST', `/api/workflow/execute/${name}/1?waitForSeconds=2`, {});
    // The task is queued: the request is waiting. Past its deadline, the next commit wakes it.
    const polled = await api.pollEventually(task);
    clock.advance(3_000);
    await expectEmptyOk(await api.send('PUT', `/api/workflow/decide/${polled.workflowInstanceId}`));
    const answer = await expectJson<Record<string, unknown>>(await pending);
    expect(answer).toMatchObject({
      workflowId: polled.workflowInstanceId,
      status: 'RUNNING',
      signalTimeout: true,
      responseType: 'TARGET_WORKFLOW',
    });
    await api.update(polled, 'COMPLETED');
    await api.workflowEventually(polled.workflowInstanceId, 'COMPLETED');
  });
});
