/**
 * The official JavaScript SDK's bulk calls (the legacy
 * `client.workflowBulkResource`, the SDK's only route to bulk operations), unmodified, against a
 * real local server: pause, resume, terminate, retry and restart over a mix of ids, each answered
 * with the BulkResponse the SDK types.
 */
import { MetadataClient, simpleTask, WorkflowExecutor, workflow } from '@io-orkes/conductor-javascript';
import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueName } from '../helpers/fixtures.ts';
import { useTestServer } from '../helpers/server.ts';
import { eventually } from '../http/execution-api.ts';
import { type SdkClient, sdkClient } from './sdk-client.ts';

const name = uniqueName('sdk_bulk');
const only = uniqueName('sdk_bulk_task');

// Node only: the SDK talks to a real URL with its own fetch.
const server = useTestServer({}, { transport: 'node' });
let client: SdkClient;
let executor: WorkflowExecutor;

beforeAll(async () => {
  client = await sdkClient(server.url);
  executor = new WorkflowExecutor(client);
  await new MetadataClient(client).registerWorkflowDef(workflow(name, [simpleTask('only', only, {})]), true);
});

const start = () => executor.startWorkflow({ name, version: 1, input: {} });

async function status(id: string, wanted: string): Promise<void> {
  await eventually(async () => {
    const run = await executor.getWorkflow(id, false);
    if (run.status !== wanted) throw new Error(`run ${id} is ${run.status}, waiting for ${wanted}`);
  });
}

describe('client.workflowBulkResource', () => {
  it('pauses and resumes many runs, reporting unknown ids', async () => {
    const a = await start();
    const b = await start();
    const paused = await client.workflowBulkResource.pauseWorkflow1([a, b, 'missing-run']);
    expect(paused.bulkSuccessfulResults).toEqual([a, b]);
    expect(Object.keys(paused.bulkErrorResults ?? {})).toEqual(['missing-run']);
    await status(a, 'PAUSED');
    const resumed = await client.workflowBulkResource.resumeWorkflow([a, b]);
    expect(resumed.bulkSuccessfulResults).toEqual([a, b]);
    await status(b, 'RUNNING');
  });

  it('terminates many runs, then retries and restarts them', async () => {
    const a = await start();
    const b = await start();
    const terminated = await client.workflowBulkResource.terminate([a, b], 'bulk stop');
    expect(terminated.bulkSuccessfulResults).toEqual([a, b]);
    await status(a, 'TERMINATED');

    const retried = await client.workflowBulkResource.retry([a]);
    expect(retried.bulkSuccessfulResults).toEqual([a]);
    await status(a, 'RUNNING');

    const restarted = await client.workflowBulkResource.restart([a, b], true);
    // `a` is running again: a conflict for restart; `b` is TERMINATED and restarts.
    expect(restarted.bulkSuccessfulResults).toEqual([b]);
    expect(restarted.bulkErrorResults?.[a]).toMatch(/RUNNING/);
    await status(b, 'RUNNING');
  });
});
