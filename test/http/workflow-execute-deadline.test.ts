/**
 * Synchronous execution answers by its deadline even when the run's first decide, which it runs
 * in the request, takes longer (a slow script): the wait must end before the function's timeout
 * on AWS (infra: the workflows function has 29 s, the wait at most 25 s, counted from the start).
 * The script takes 2.5 s of real time; the request waits 1 s.
 */
import { describe, expect, it } from 'vitest';
import { script, uniqueName } from '../helpers/fixtures.ts';
import { useTestServer } from '../helpers/server.ts';
import { ExecutionApi, eventually, expectJson } from './execution-api.ts';

const api = new ExecutionApi(useTestServer());
const SCRIPT_MS = 2500;

describe('POST /api/workflow/execute: a first decide slower than the wait', () => {
  it('answers at the deadline with signalTimeout while the decide goes on, and the run still completes', async () => {
    const name = uniqueName('slow_first_decide');
    await api.registerWorkflow({
      name,
      version: 1,
      tasks: [
        script(
          'busy',
          `(function () { var end = Date.now() + ${SCRIPT_MS}; while (Date.now() < end) {} return 7; })()`,
        ),
      ],
    });
    const answer = await expectJson<Record<string, unknown>>(
      await api.send('POST', `/api/workflow/execute/${name}/1?waitForSeconds=1`, {}),
    );
    // Answered without the decide's outcome: the script was still running.
    expect(answer).toMatchObject({ status: 'RUNNING', signalTimeout: true });
    expect(answer.tasks ?? []).toEqual([]);
    // The decide went on: the run completes with the script's result (slow on a loaded machine).
    const workflowId = String(answer.workflowId);
    const run = await eventually(async () => {
      const current = await api.workflow(workflowId);
      if (current.status !== 'COMPLETED') throw new Error(`workflow ${workflowId} is ${current.status}`);
      return current;
    }, 30_000);
    expect(run.tasks[0]).toMatchObject({ status: 'COMPLETED', outputData: { result: 7 } });
  }, 60_000);
});
