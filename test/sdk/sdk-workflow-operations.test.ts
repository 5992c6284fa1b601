/**
 * The official JavaScript SDK's run operations, unmodified, against a real local server
 *: WorkflowExecutor.pause, resume, terminate, skipTasksFromWorkflow,
 * deleteWorkflow and updateVariables, with their conflicts surfacing as the SDK's errors carrying
 * the server's message. Tasks are completed through the SDK's updateTaskByRefName (no workers).
 */
import { MetadataClient, simpleTask, WorkflowExecutor, workflow } from '@io-orkes/conductor-javascript';
import { beforeAll, describe, expect, it } from 'vitest';
import { ref, uniqueName } from '../helpers/fixtures.ts';
import { useTestServer } from '../helpers/server.ts';
import { eventually } from '../http/execution-api.ts';
import { sdkClient } from './sdk-client.ts';

const name = uniqueName('sdk_ops');
const first = uniqueName('sdk_ops_first');
const second = uniqueName('sdk_ops_second');

// Node only: the SDK talks to a real URL with its own fetch.
const server = useTestServer({}, { transport: 'node' });
let executor: WorkflowExecutor;

beforeAll(async () => {
  const client = await sdkClient(server.url);
  executor = new WorkflowExecutor(client);
  await new MetadataClient(client).registerWorkflowDef(
    {
      ...workflow(name, [simpleTask('first', first, {}), simpleTask('second', second, {})]),
      outputParameters: { result: ref('second.output.result') },
    },
    true,
  );
});

const start = () => executor.startWorkflow({ name, version: 1, input: {} });

async function status(id: string, wanted: string): Promise<void> {
  await eventually(async () => {
    const run = await executor.getWorkflow(id, false);
    if (run.status !== wanted) throw new Error(`run ${id} is ${run.status}, waiting for ${wanted}`);
  });
}

describe('WorkflowExecutor run operations', () => {
  it('pauses and resumes: a task completed while paused is kept, the next one waits for resume', async () => {
    const id = await start();
    await executor.pause(id);
    expect((await executor.getWorkflow(id, false)).status).toBe('PAUSED');
    await executor.updateTaskByRefName('first', id, 'COMPLETED', { value: 1 });
    const paused = await executor.getWorkflow(id, true);
    expect(paused.tasks?.map((t) => [t.referenceTaskName, t.status])).toEqual([['first', 'COMPLETED']]);

    await executor.resume(id);
    await eventually(async () => {
      const run = await executor.getWorkflow(id, true);
      if (run.tasks?.length !== 2) throw new Error('second task not scheduled yet');
    });
    expect((await executor.getWorkflow(id, false)).status).toBe('RUNNING');
    await expect(executor.resume(id)).rejects.toThrow(
      'Workflow is RUNNING; only a PAUSED workflow can be resumed',
    );
  });

  it('skips a task with the output given, and the run completes with it', async () => {
    const id = await start();
    await executor.skipTasksFromWorkflow(id, 'second', { taskOutput: { result: 'skipped' } });
    await executor.updateTaskByRefName('first', id, 'COMPLETED', {});
    await status(id, 'COMPLETED');
    const run = await executor.getWorkflow(id, true);
    expect(run.output).toEqual({ result: 'skipped' });
    expect(run.tasks?.map((t) => t.status)).toEqual(['COMPLETED', 'SKIPPED']);
    await expect(executor.skipTasksFromWorkflow(id, 'second', {})).rejects.toThrow(
      'Workflow is COMPLETED; a task can be skipped only in a RUNNING workflow',
    );
  });

  it('terminates a running run and refuses a COMPLETED one', async () => {
    const id = await start();
    await executor.terminate(id, 'from the SDK');
    const run = await executor.getWorkflow(id, true);
    expect(run).toMatchObject({ status: 'TERMINATED', reasonForIncompletion: 'from the SDK' });
    expect(run.tasks?.map((t) => t.status)).toEqual(['CANCELED']);

    const done = await start();
    await executor.updateTaskByRefName('first', done, 'COMPLETED', {});
    await eventually(() => executor.updateTaskByRefName('second', done, 'COMPLETED', { result: 'r' }));
    await status(done, 'COMPLETED');
    await expect(executor.terminate(done, 'too late')).rejects.toThrow(
      'Cannot terminate a COMPLETED workflow.',
    );
  });

  it('updates variables and removes a run', async () => {
    const id = await start();
    const run = await executor.updateVariables(id, { stage: 'two' });
    expect(run).toMatchObject({ workflowId: id, variables: { stage: 'two' } });
    await expect(executor.deleteWorkflow(id, true)).rejects.toThrow(`Cannot archive workflow ${id}`);
    await executor.deleteWorkflow(id, false);
    await expect(executor.getWorkflow(id, false)).rejects.toThrow(`No such workflow found by id: ${id}`);
  });
});
