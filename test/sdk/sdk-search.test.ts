/**
 * The official JavaScript SDK's WorkflowExecutor.search against a real local server
 *: the IN form and the = form with quoted values, as the SDK sends them.
 */
import { WorkflowExecutor } from '@io-orkes/conductor-javascript';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/server.ts';
import { type Chain, ExecutionApi, expectOk } from '../http/execution-api.ts';
import { sdkClient } from './sdk-client.ts';

const server = useTestServer({}, { transport: 'node' });
const api = new ExecutionApi(server);
let executor: WorkflowExecutor;
let a: Chain;
let b: Chain;
const ids: string[] = [];

beforeAll(async () => {
  executor = new WorkflowExecutor(await sdkClient(server.url));
  a = await api.registerChain();
  b = await api.registerChain();
  ids.push(await executor.startWorkflow({ name: a.name, version: 1, input: {} }));
  ids.push(await executor.startWorkflow({ name: b.name, version: 1, input: {} }));
  ids.push(await executor.startWorkflow({ name: b.name, version: 1, input: {} }));
  await expectOk(await api.send('DELETE', `/api/workflow/${ids[2]}?reason=done`));
});

describe('WorkflowExecutor.search', () => {
  it('finds runs with workflowType IN (a,b) AND status IN (...)', async () => {
    const result = await executor.search(
      0,
      10,
      `workflowType IN (${a.name},${b.name}) AND status IN (RUNNING)`,
      '*',
    );
    expect(result.totalHits).toBe(2);
    expect((result.results ?? []).map((r) => r.workflowId).sort()).toEqual([ids[0], ids[1]].sort());
    expect(result.results?.[0]?.startTime).toMatch(/Z$/);
  });

  it('finds runs with the = form and quoted values, sorted', async () => {
    const result = await executor.search(
      0,
      10,
      `workflowType = "${b.name}" AND status = 'TERMINATED'`,
      '*',
      'startTime:DESC',
    );
    expect(result.totalHits).toBe(1);
    expect(result.results?.[0]).toMatchObject({
      workflowId: ids[2],
      workflowType: b.name,
      status: 'TERMINATED',
    });
  });
});
