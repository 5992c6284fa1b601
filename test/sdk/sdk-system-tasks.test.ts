/**
 * One workflow that uses every system task of issue 13 (NOOP, LAMBDA, JSON_JQ_TRANSFORM, DYNAMIC,
 * HTTP, EXCLUSIVE_JOIN after a SWITCH, START_WORKFLOW, FORK_JOIN_DYNAMIC with its JOIN), built with
 * the official JavaScript SDK's builders where it has them, registered and run through the SDK
 * unmodified against a real local server, with an SDK worker for the DYNAMIC and forked tasks and a
 * local HTTP server for the HTTP task.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  dynamicForkTask,
  dynamicTask,
  httpTask,
  joinTask,
  jsonJqTask,
  MetadataClient,
  startWorkflowTask,
  type TaskHandler,
  WorkflowExecutor,
  workflow,
} from '@io-orkes/conductor-javascript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ref, uniqueName } from '../helpers/fixtures.ts';
import { useTestServer } from '../helpers/server.ts';
import { eventually } from '../http/execution-api.ts';
import { collectingLogger, type SdkClient, sdkClient, startWorkers, worker } from './sdk-client.ts';

const names = {
  main: uniqueName('sdk_catalogue'),
  child: uniqueName('sdk_catalogue_child'),
  worker: uniqueName('sdk_catalogue_worker'),
};

// The HTTP task calls a server on loopback, which the service refuses unless allowed.
const server = useTestServer({ 'service.http-task.allow-private-networks': true }, { transport: 'node' });
let client: SdkClient;
let handler: TaskHandler | undefined;
let api: Server;

beforeAll(async () => {
  api = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ echoed: JSON.parse(body || 'null'), path: req.url }));
    });
  });
  await new Promise<void>((done) => api.listen(0, '127.0.0.1', done));
  const apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;

  client = await sdkClient(server.url);
  const metadata = new MetadataClient(client);
  await metadata.registerTask({
    name: names.worker,
    retryCount: 0,
    timeoutSeconds: 60,
    responseTimeoutSeconds: 30,
  });
  await metadata.registerWorkflowDef(
    workflow(names.child, [{ name: 'child_noop', taskReferenceName: 'child_noop', type: 'NOOP' } as never]),
    true,
  );
  await metadata.registerWorkflowDef(
    {
      ...workflow(names.main, [
        { name: 'nothing', taskReferenceName: 'nothing', type: 'NOOP', inputParameters: {} } as never,
        {
          name: 'lambda',
          taskReferenceName: 'lambda',
          type: 'LAMBDA',
          inputParameters: { n: ref('workflow.input.n'), scriptExpression: 'return $.n * 3;' },
        } as never,
        {
          ...jsonJqTask('jq', '{total: (.values | add)}'),
          inputParameters: {
            queryExpression: '{total: (.values | add)}',
            values: ref('workflow.input.values'),
          },
        },
        dynamicTask('dyn', ref('workflow.input.workerName')) as never,
        httpTask('call', {
          uri: `${apiUrl}/orders`,
          method: 'POST',
          body: { total: ref('jq.output.result.total') },
        } as never),
        {
          name: 'route',
          taskReferenceName: 'route',
          type: 'SWITCH',
          evaluatorType: 'value-param',
          expression: 'side',
          inputParameters: { side: ref('workflow.input.side') },
          decisionCases: {
            left: [
              {
                name: 'left',
                taskReferenceName: 'left',
                type: 'INLINE',
                inputParameters: { expression: '"L"' },
              },
            ],
            right: [
              {
                name: 'right',
                taskReferenceName: 'right',
                type: 'INLINE',
                inputParameters: { expression: '"R"' },
              },
            ],
          },
        } as never,
        {
          name: 'pick',
          taskReferenceName: 'pick',
          type: 'EXCLUSIVE_JOIN',
          joinOn: ['left', 'right'],
        } as never,
        startWorkflowTask('kick', names.child, { from: 'main' }) as never,
        dynamicForkTask('fan', ref('workflow.input.forkTasks') as never, ref('workflow.input.forkInputs')),
        joinTask('fan_join', []),
      ]),
      outputParameters: {
        lambda: ref('lambda.output.result'),
        jq: ref('jq.output.result'),
        dyn: ref('dyn.output.done'),
        http: ref('call.output.response.body'),
        picked: ref('pick.output.result'),
        started: ref('kick.output.workflowId'),
        fan: ref('fan_join.output'),
      },
    },
    true,
  );
  handler = await startWorkers(
    client,
    [
      worker(names.worker, async (task) => ({
        status: 'COMPLETED',
        outputData: { done: task.inputData?.k ?? 'dyn' },
      })),
    ],
    collectingLogger().logger,
  );
});

afterAll(async () => {
  await handler?.stopWorkers();
  await new Promise((done) => api.close(done));
});

describe('every system task of the catalogue, through the SDK', () => {
  it('runs to COMPLETED with the expected output', async () => {
    const executor = new WorkflowExecutor(client);
    const id = await executor.startWorkflow({
      name: names.main,
      version: 1,
      input: {
        n: 5,
        values: [1, 2, 3],
        workerName: names.worker,
        side: 'right',
        forkTasks: [
          { name: names.worker, taskReferenceName: 'f1', type: 'SIMPLE' },
          { name: names.worker, taskReferenceName: 'f2', type: 'SIMPLE' },
        ],
        forkInputs: { f1: { k: 'one' }, f2: { k: 'two' } },
      },
    });
    const run = await eventually(async () => {
      const r = await executor.getWorkflow(id, true);
      if (r.status !== 'COMPLETED')
        throw new Error(`run ${id} is ${r.status} ${r.reasonForIncompletion ?? ''}`);
      return r;
    }, 15_000);
    expect(run.output).toMatchObject({
      lambda: 15,
      jq: { total: 6 },
      dyn: 'dyn',
      http: { echoed: { total: 6 }, path: '/orders' },
      picked: 'R',
      fan: { f1: { done: 'one' }, f2: { done: 'two' } },
    });
    const started = await executor.getWorkflow(String(run.output?.started), false);
    expect(started).toMatchObject({ workflowName: names.child, input: { from: 'main' } });
  });
});
