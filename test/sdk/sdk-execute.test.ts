/**
 * Synchronous execution through the official JavaScript SDK, unmodified:
 * WorkflowExecutor.executeWorkflow in its old form (a WorkflowRun) and with a return strategy (an
 * EnhancedSignalResponse whose helpers read the answer), startWorkflow with an idempotency key (shown
 * on the run), and getByCorrelationIds (Orkes' correlated/batch).
 */
import {
  Consistency,
  MetadataClient,
  ReturnStrategy,
  WorkflowExecutor,
} from '@io-orkes/conductor-javascript';
import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueName } from '../helpers/fixtures.ts';
import { useTestServer } from '../helpers/server.ts';
import { systemOnlyWorkflow } from '../helpers/system-only.ts';
import { type SdkClient, sdkClient } from './sdk-client.ts';

// Node only: the SDK talks to a real URL with its own fetch.
const server = useTestServer({}, { transport: 'node' });
let client: SdkClient;
const quick = uniqueName('sdk_quick');
const held = uniqueName('sdk_held');

beforeAll(async () => {
  client = await sdkClient(server.url);
  const metadata = new MetadataClient(client);
  await metadata.registerWorkflowDef(systemOnlyWorkflow(quick) as never, true);
  // A WAIT with neither duration nor until blocks until completed through the API.
  const hold = { name: 'hold', taskReferenceName: 'hold', type: 'WAIT', inputParameters: { ask: 'ok?' } };
  await metadata.registerWorkflowDef({ name: held, version: 1, tasks: [hold] } as never, true);
});

describe('WorkflowExecutor.executeWorkflow', () => {
  it('answers the completed run of system tasks (old form: a WorkflowRun)', async () => {
    const executor = new WorkflowExecutor(client);
    const run = await executor.executeWorkflow({ name: quick, input: { n: 2 } }, quick, 1, uniqueName('req'));
    expect(run).toMatchObject({ status: 'COMPLETED', output: { n: 7 } });
    expect(run.tasks).toHaveLength(10);
  });

  it('answers a blocking task with the BLOCKING_TASK strategy, read through the SDK helpers', async () => {
    const executor = new WorkflowExecutor(client);
    const answer = await executor.executeWorkflow(
      { name: held },
      held,
      0,
      uniqueName('req'),
      '',
      10,
      Consistency.DURABLE,
      ReturnStrategy.BLOCKING_TASK,
    );
    expect(answer.isBlockingTask()).toBe(true);
    expect(answer.getBlockingTask()).toMatchObject({ taskType: 'WAIT', referenceTaskName: 'hold' });
    expect(answer.getBlockingTask().status).toBe('IN_PROGRESS');
    expect(answer.targetWorkflowStatus).toBe('RUNNING');
  });

  it('answers the same run for the same requestId', async () => {
    const executor = new WorkflowExecutor(client);
    const requestId = uniqueName('req');
    const first = await executor.executeWorkflow({ name: quick, input: { n: 0 } }, quick, 1, requestId);
    const again = await executor.executeWorkflow({ name: quick, input: { n: 0 } }, quick, 1, requestId);
    expect(again.workflowId).toBe(first.workflowId);
  });

  it('starts one run for one idempotency key and finds it by correlation id', async () => {
    const executor = new WorkflowExecutor(client);
    const correlationId = uniqueName('corr');
    const request = {
      name: held,
      correlationId,
      idempotencyKey: 'sdk-key',
      idempotencyStrategy: 'RETURN_EXISTING' as const,
    };
    const first = await executor.startWorkflow(request);
    expect(await executor.startWorkflow(request)).toBe(first);
    // The run shows the key and strategy it was started with (Orkes' Workflow.idempotencyKey).
    const run = await executor.getWorkflow(first, true);
    expect(run.idempotencyKey).toBe('sdk-key');
    expect((run as { idempotencyStrategy?: string }).idempotencyStrategy).toBe('RETURN_EXISTING');
    const found = await executor.getByCorrelationIds({
      workflowNames: [held],
      correlationIds: [correlationId],
    });
    expect(found[correlationId]?.map((w) => w.workflowId)).toEqual([first]);
  });
});
