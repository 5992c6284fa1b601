/**
 * The state update through the official SDK, unmodified (WorkflowExecutor.updateState: Orkes'
 * POST /api/workflow/{id}/state; docs/conductor-compat.md §1.6): variables and a task result by
 * reference name in one call, the answer a WorkflowRun once the run is blocked again, over, or a
 * listed task is over, as Orkes' own `sync_task_variable_updates` example drives it: a WAIT, then a
 * SWITCH on a variable the update sets, then a WAIT in the branch it chose.
 */
import { MetadataClient, WorkflowExecutor } from '@io-orkes/conductor-javascript';
import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueName } from '../helpers/fixtures.ts';
import { useTestServer } from '../helpers/server.ts';
import { recordingFetch, sdkClient } from './sdk-client.ts';

// Node only: the SDK talks to a real URL with its own fetch.
const server = useTestServer({}, { transport: 'node' });
const recorder = recordingFetch();
let executor: WorkflowExecutor;
const name = uniqueName('sdk_state_update');

const wait = (ref: string) => ({ name: ref, taskReferenceName: ref, type: 'WAIT' });

beforeAll(async () => {
  const client = await sdkClient(server.url, { fetch: recorder.fetch });
  executor = new WorkflowExecutor(client);
  await new MetadataClient(client).registerWorkflowDef(
    {
      name,
      version: 1,
      timeoutSeconds: 0,
      tasks: [
        wait('wait_task_ref'),
        {
          name: 'switch',
          taskReferenceName: 'switch_ref',
          type: 'SWITCH',
          evaluatorType: 'value-param',
          expression: 'case',
          inputParameters: { case: '$' + '{workflow.variables.case}' },
          decisionCases: { case1: [wait('wait_task_ref_1')], case2: [wait('wait_task_ref_2')] },
        },
      ],
    } as never,
    true,
  );
});

describe('WorkflowExecutor.updateState', () => {
  it('sets variables and completes a task by reference, answering once the run is blocked again', async () => {
    const workflowId = await executor.startWorkflow({ name, version: 1 });
    const waiting = await executor.getExecution(workflowId);
    const first = waiting.tasks?.find((t) => t.referenceTaskName === 'wait_task_ref');
    const requestId = uniqueName('req');

    const run = await executor.updateState(
      workflowId,
      {
        taskReferenceName: 'wait_task_ref',
        taskResult: {
          taskId: first?.taskId ?? '',
          workflowInstanceId: workflowId,
          status: 'COMPLETED',
          outputData: { a: 'b' },
        },
        variables: { case: 'case1' },
      },
      requestId,
      'wait_task_ref_1,wait_task_ref_2',
      10,
    );
    expect(run).toMatchObject({
      workflowId,
      status: 'RUNNING',
      requestId,
      responseType: 'TARGET_WORKFLOW',
      variables: { case: 'case1' },
    });
    expect((run as { signalTimeout?: boolean }).signalTimeout).toBe(false);
    expect(run.tasks?.map((t) => [t.referenceTaskName, t.status])).toEqual([
      ['wait_task_ref', 'COMPLETED'],
      ['switch_ref', 'COMPLETED'],
      ['wait_task_ref_1', 'IN_PROGRESS'],
    ]);
    expect(run.tasks?.[0]?.outputData).toEqual({ a: 'b' });

    // A result without a status completes the task; the run is over when the answer comes.
    const done = await executor.updateState(
      workflowId,
      { taskReferenceName: 'wait_task_ref_1', taskResult: { outputData: { last: true } } as never },
      uniqueName('req'),
    );
    expect(done.status).toBe('COMPLETED');
    expect(new Set(done.tasks?.map((t) => t.status))).toEqual(new Set(['COMPLETED']));

    // Sent again (its task named), the first update applies nothing more and answers the run.
    const again = await executor.updateState(
      workflowId,
      {
        taskReferenceName: 'wait_task_ref',
        taskResult: { taskId: first?.taskId ?? '', workflowInstanceId: workflowId, status: 'FAILED' },
      },
      requestId,
    );
    expect(again.status).toBe('COMPLETED');
    expect(again.tasks?.[0]).toMatchObject({ status: 'COMPLETED', outputData: { a: 'b' } });

    const calls = recorder.calls.filter((c) => c.path === `/api/workflow/${workflowId}/state`);
    expect(calls.map((c) => `${c.method} ${c.status}`)).toEqual(['POST 200', 'POST 200', 'POST 200']);
  });

  it('sets variables alone and answers at once when the run is blocked', async () => {
    const workflowId = await executor.startWorkflow({ name, version: 1 });
    const started = Date.now();
    const run = await executor.updateState(workflowId, { variables: { note: 'hi' } }, uniqueName('req'));
    expect(Date.now() - started).toBeLessThan(5000);
    expect(run).toMatchObject({ status: 'RUNNING', variables: { note: 'hi' } });
    expect(run.tasks?.map((t) => [t.referenceTaskName, t.status])).toEqual([
      ['wait_task_ref', 'IN_PROGRESS'],
    ]);
  });

  it('rejects an update of a task that is not open, or of a run that does not exist', async () => {
    const workflowId = await executor.startWorkflow({ name, version: 1 });
    await expect(
      executor.updateState(
        workflowId,
        { taskReferenceName: 'wait_task_ref_2', taskResult: { status: 'COMPLETED' } as never },
        uniqueName('req'),
      ),
    ).rejects.toThrow(/No open task/);
    await expect(
      executor.updateState(uniqueName('no_such_run'), { variables: { a: 1 } }, uniqueName('req')),
    ).rejects.toThrow();
  });
});
