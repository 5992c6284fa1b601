// The search indexer's Lambda handler end to end: a DynamoDB Streams event of the executions table
// in, signed OpenSearch requests out (to a loopback fake), configured from the environment the
// stack sets. And the local host, which has no indexer, refusing the backend.
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, beforeAll, expect, it } from 'vitest';
// One handler for the file, as one Lambda instance: its index (and the indexes' creation) is made once.
import { handler } from '../../functions/search-indexer.ts';
import { configOf, envNameOf } from '../../lib/config/load.ts';
import { silentLogger } from '../../lib/log/logger.ts';
import { startLocalServer } from '../../lib/runtime/local.ts';
import { taskItem, taskKey, workflowItem } from '../../lib/store/dynamodb/execution-items.ts';
import { FakeOpenSearch } from '../search/opensearch/fake-opensearch.ts';
import { taskOf, workflowOf } from '../store/executions.contract.ts';

const fake = new FakeOpenSearch();
const env: Record<string, string> = {};

beforeAll(async () => {
  await fake.start();
  Object.assign(env, {
    [envNameOf('service.search.backend')]: 'opensearch',
    [envNameOf('service.search.opensearch.endpoint')]: fake.url,
    [envNameOf('service.search.opensearch.region')]: 'eu-central-1',
    AWS_ACCESS_KEY_ID: 'AKIDINDEXER',
    AWS_SECRET_ACCESS_KEY: 'secret',
  });
  for (const [name, value] of Object.entries(env)) process.env[name] = value;
});

afterAll(async () => {
  for (const name of Object.keys(env)) delete process.env[name];
  await fake.stop();
});

const image = (item: Record<string, unknown>) =>
  marshall(item, { removeUndefinedValues: true }) as Record<string, never>;

it('indexes the runs and task rows of a stream batch, and deletes removed ones, through signed _bulk', async () => {
  const run = workflowOf('wf-9', { workflowName: 'orders', status: 'RUNNING' });
  const item = workflowItem(run);
  const event: DynamoDBStreamEvent = {
    Records: [
      {
        eventName: 'INSERT',
        dynamodb: { Keys: image({ pk: item.pk, sk: item.sk }), NewImage: image(item) },
      },
      {
        eventName: 'REMOVE',
        dynamodb: { Keys: image(taskKey('wf-9', 'old-task')) },
      },
      {
        eventName: 'INSERT',
        dynamodb: {
          Keys: image(taskKey('wf-9', 'task-9')),
          NewImage: image(taskItem(taskOf('wf-9', 'task-9', 1, { taskType: 'HTTP' }))),
        },
      },
    ],
  };
  fake.answer({ status: 200 }, { status: 200 }, { status: 200, body: { errors: false, items: [] } });
  await handler(event);

  const bulk = fake.requests.find((r) => r.path === '/_bulk');
  expect(
    fake.requests
      .filter((r) => r.method === 'PUT')
      .map((r) => r.path)
      .sort(),
  ).toEqual(['/conductor-tasks', '/conductor-workflows']);
  expect(bulk?.headers.authorization).toMatch(
    /^AWS4-HMAC-SHA256 Credential=AKIDINDEXER\/\d{8}\/eu-central-1\/aoss\//,
  );
  const lines = (bulk?.body ?? '')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  expect(lines).toEqual([
    { index: { _index: 'conductor-workflows', _id: 'wf-9' } },
    expect.objectContaining({ workflowId: 'wf-9', workflowType: 'orders', status: 'RUNNING' }),
    { delete: { _index: 'conductor-tasks', _id: 'old-task' } },
    { index: { _index: 'conductor-tasks', _id: 'task-9' } },
    expect.objectContaining({ taskId: 'task-9', taskType: 'HTTP', workflowId: 'wf-9' }),
  ]);
});

it('fails the batch when OpenSearch refuses a write, so the stream delivers it again', async () => {
  fake.answer({
    status: 200,
    body: { errors: true, items: [{ index: { status: 403, error: { type: 'security_exception' } } }] },
  });
  const item = workflowItem(workflowOf('wf-10'));
  await expect(
    handler({
      Records: [
        {
          eventName: 'MODIFY',
          dynamodb: { Keys: image({ pk: item.pk, sk: item.sk }), NewImage: image(item) },
        },
      ],
    }),
  ).rejects.toThrow(/security_exception/);
});

it('the local server refuses the OpenSearch backend, which nothing would feed locally', async () => {
  const config = configOf({
    'service.store': 'memory',
    'service.server.port': 0,
    'service.search.backend': 'opensearch',
  });
  await expect(startLocalServer(config, { logger: silentLogger })).rejects.toThrow(/AWS stack/);
});
