/**
 * The official JavaScript SDK's WorkflowExecutor.retry, restart and reRun against a real local
 * server: each runs an ended run again, and a refusal surfaces as the SDK's
 * error carrying the server's message. Tasks are worked over plain HTTP (ExecutionApi).
 */
import { MetadataClient, WorkflowExecutor } from '@io-orkes/conductor-javascript';
import { beforeAll, describe, expect, it } from 'vitest';
import { ref, uniqueName } from '../helpers/fixtures.ts';
import { useTestServer } from '../helpers/server.ts';
import { ExecutionApi } from '../http/execution-api.ts';
import { type SdkClient, sdkClient } from './sdk-client.ts';

const server = useTestServer({}, { transport: 'node' });
const api = new ExecutionApi(server);
let executor: WorkflowExecutor;

const names = { wf: uniqueName('sdk_hist'), a: uniqueName('sdk_a'), b: uniqueName('sdk_b') };

beforeAll(async () => {
  const client: SdkClient = await sdkClient(server.url);
  executor = new WorkflowExecutor(client);
  await new MetadataClient(client).registerWorkflowDef(
    {
      name: names.wf,
      version: 1,
      tasks: [
        { name: names.a, taskReferenceName: 'a', type: 'SIMPLE', retryCount: 0, inputParameters: {} },
        {
          name: names.b,
          taskReferenceName: 'b',
          type: 'SIMPLE',
          retryCount: 0,
          inputParameters: { fromA: ref('a.output.v') },
        },
      ],
      outputParameters: { result: ref('b.output.v') },
      timeoutSeconds: 0,
    } as unknown as Parameters<MetadataClient['registerWorkflowDef']>[0],
    true,
  );
});

async function work(taskType: string, status = 'COMPLETED', output: Record<string, unknown> = {}) {
  const task = await api.pollEventually(taskType);
  await api.update(task, status, output);
  return task;
}

/** A run whose task a completed and b failed. */
async function failedRun(): Promise<string> {
  const id = await executor.startWorkflow({ name: names.wf, version: 1, input: { n: 1 } });
  await work(names.a, 'COMPLETED', { v: 'A' });
  await work(names.b, 'FAILED');
  await api.workflowEventually(id, 'FAILED');
  return id;
}

describe('WorkflowExecutor on ended runs', () => {
  it('retry runs the failed task again and the run completes', async () => {
    const id = await failedRun();
    await executor.retry(id, false);
    expect((await executor.getWorkflow(id, false)).status).toBe('RUNNING');
    const b = await work(names.b, 'COMPLETED', { v: 'B' });
    expect(b.inputData).toEqual({ fromA: 'A' });
    const run = await api.workflowEventually(id, 'COMPLETED');
    expect(run.output).toEqual({ result: 'B' });
  });

  it('restart starts the run over under the same id', async () => {
    const id = await failedRun();
    await executor.restart(id, false);
    const run = await executor.getWorkflow(id, true);
    expect(run.status).toBe('RUNNING');
    expect(run.input).toEqual({ n: 1 });
    await work(names.a, 'COMPLETED', { v: 'A2' });
    await work(names.b, 'COMPLETED', { v: 'B2' });
    expect((await api.workflowEventually(id, 'COMPLETED')).output).toEqual({ result: 'B2' });
  });

  it('reRun from a task answers the workflow id and reruns from there', async () => {
    const id = await failedRun();
    const failedB = (await executor.getWorkflow(id, true)).tasks?.find((t) => t.referenceTaskName === 'b');
    const answer = await executor.reRun(id, {
      reRunFromTaskId: failedB?.taskId,
      taskInput: { fromA: 'given' },
    });
    expect(answer).toBe(id);
    const b = await work(names.b, 'COMPLETED', { v: 'B3' });
    expect(b.inputData).toEqual({ fromA: 'given' });
    await api.workflowEventually(id, 'COMPLETED');
  });

  it('surfaces a refusal with the server message', async () => {
    const id = await executor.startWorkflow({ name: names.wf, version: 1, input: {} });
    await expect(executor.retry(id, false)).rejects.toThrow(/only a terminal workflow can be retried/);
    await expect(executor.restart(id, false)).rejects.toThrow(/only a terminal workflow can be restarted/);
    await expect(executor.reRun(id, {})).rejects.toThrow(/only a terminal workflow can be rerun/);
  });
});
