/**
 * WorkflowExecutor.testWorkflow of the official SDK (POST /api/workflow/test)
 * against a real local server: a definition built with the SDK's builders, run against mocks,
 * answered with the simulated Workflow; an unknown workflow surfaces as the SDK's error.
 */
import { simpleTask, switchTask, WorkflowExecutor, workflow } from '@io-orkes/conductor-javascript';
import { beforeAll, describe, expect, it } from 'vitest';
import { ref, uniqueName } from '../helpers/fixtures.ts';
import { useTestServer } from '../helpers/server.ts';
import { type RecordedCall, recordingFetch, type SdkClient, sdkClient } from './sdk-client.ts';

// Node only: the SDK talks to a real URL with its own fetch.
const server = useTestServer({}, { transport: 'node' });
let client: SdkClient;
let calls: RecordedCall[];

beforeAll(async () => {
  const recorder = recordingFetch();
  calls = recorder.calls;
  client = await sdkClient(server.url, { fetch: recorder.fetch });
});

describe('WorkflowExecutor.testWorkflow', () => {
  it('runs an inline definition against mocks and answers the simulated run', async () => {
    const [check, big, small] = [uniqueName('check'), uniqueName('big'), uniqueName('small')];
    const def = workflow(uniqueName('sdk_test_run'), [
      simpleTask('check', check, {}),
      switchTask('route', ref('check.output.kind'), {
        big: [simpleTask('big', big, {})],
        small: [simpleTask('small', small, {})],
      }),
    ]);
    const executor = new WorkflowExecutor(client);
    const run = await executor.testWorkflow({
      name: def.name,
      workflowDef: def,
      input: { a: 1 },
      taskRefToMockOutput: {
        check: [
          { status: 'FAILED', output: {} },
          { status: 'COMPLETED', output: { kind: 'small' } },
        ],
        small: [{ status: 'COMPLETED', output: { done: true } }],
      },
    });
    expect(run.status).toBe('COMPLETED');
    expect(run.tasks?.map((t) => [t.referenceTaskName, t.status])).toEqual([
      ['check', 'FAILED'],
      ['check', 'COMPLETED'],
      ['route', 'COMPLETED'],
      ['small', 'COMPLETED'],
    ]);
    expect(calls.at(-1)).toMatchObject({ method: 'POST', path: '/api/workflow/test', status: 200 });
  });

  it('rejects an unknown workflow with the server error', async () => {
    const executor = new WorkflowExecutor(client);
    await expect(executor.testWorkflow({ name: uniqueName('missing') })).rejects.toThrow(
      /No such workflow defined/,
    );
    expect(calls.at(-1)).toMatchObject({ path: '/api/workflow/test', status: 404 });
  });
});
