/**
 * Two server processes on one store (docs/scale.md): two local servers, each its own process with
 * its own in-process decider, share one DynamoDB (dynalite) store, as Lambda instances share the
 * stack's tables. Runs are started on both, and workers poll and complete through both at once, so
 * decides of one run race between the processes. Conditional commits and conditional claims must
 * keep every run whole: every run COMPLETED, each task handed out exactly once, no task scheduled
 * twice, nothing lost. A concurrentExecLimit holds across both processes (it is kept in the store).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildServer, startChildServer } from '../../bench/lib/child-server.ts';
import { expectStatus, HttpClient } from '../../bench/lib/http-client.ts';
import { ensureTables, tableNamesFrom } from '../../lib/runtime/store-bundle.ts';
import { dynamoSession } from '../../lib/store/dynamodb/index.ts';
import { startTestDynamo, type TestDynamo } from '../helpers/dynamo.ts';

const RUNS = 24;
const TYPES = ['two_a', 'two_b', 'two_c'];
const WORKERS = 6;

interface Polled {
  taskId: string;
  workflowInstanceId: string;
}

describe('two server processes on one DynamoDB store', () => {
  let dynamo: TestDynamo;
  const servers: ChildServer[] = [];
  const clients: HttpClient[] = [];

  beforeAll(async () => {
    dynamo = await startTestDynamo();
    const prefix = dynamo.uniquePrefix();
    // Created once here, so the two servers do not race to create them.
    await ensureTables(dynamoSession(dynamo.admin), tableNamesFrom(prefix));
    const env = {
      SERVICE_STORE: 'dynamodb',
      SERVICE_DYNAMODB_ENDPOINT: dynamo.endpoint,
      SERVICE_DYNAMODB_REGION: 'us-east-1',
      SERVICE_DYNAMODB_TABLE_PREFIX: prefix,
    };
    for (let i = 0; i < 2; i++) {
      const server = await startChildServer({ env });
      servers.push(server);
      clients.push(new HttpClient(server.url, 32));
    }
  }, 120_000);

  afterAll(async () => {
    for (const client of clients) client.close();
    await Promise.all(servers.map((s) => s.stop()));
    await dynamo?.close();
  });

  it('completes every run, handing out each task once, with decides racing between the processes', async () => {
    const [a, b] = clients as [HttpClient, HttpClient];
    expectStatus(
      await a.post(
        '/api/metadata/taskdefs',
        TYPES.map((name) => ({ name, retryCount: 0, ownerEmail: 'test@example.com' })),
      ),
      'task definitions',
    );
    expectStatus(
      await a.post('/api/metadata/workflow', {
        name: 'two_servers',
        version: 1,
        schemaVersion: 2,
        ownerEmail: 'test@example.com',
        tasks: TYPES.map((name, i) => ({ name, taskReferenceName: `t${i}`, type: 'SIMPLE' })),
      }),
      'workflow definition',
    );
    const ids = await Promise.all(
      Array.from({ length: RUNS }, async (_, i) => {
        const client = i % 2 === 0 ? a : b;
        return expectStatus(await client.post('/api/workflow/two_servers', {}), 'start').body;
      }),
    );

    const handedOut = new Map<string, number>();
    let completed = 0;
    const total = RUNS * TYPES.length;
    const deadline = Date.now() + 90_000;
    await Promise.all(
      Array.from({ length: WORKERS }, async (_, w) => {
        for (let round = w; completed < total && Date.now() < deadline; round++) {
          // Polls and updates alternate between the servers: a task polled on one is completed on the other.
          const pollOn = round % 2 === 0 ? a : b;
          const updateOn = pollOn === a ? b : a;
          const type = TYPES[round % TYPES.length] as string;
          const answer = expectStatus(
            await pollOn.get(`/api/tasks/poll/batch/${type}?workerid=w${w}&count=5&timeout=50`),
            'poll',
          );
          const tasks = JSON.parse(answer.body) as Polled[];
          await Promise.all(
            tasks.map(async (task) => {
              handedOut.set(task.taskId, (handedOut.get(task.taskId) ?? 0) + 1);
              expectStatus(
                await updateOn.post('/api/tasks', {
                  workflowInstanceId: task.workflowInstanceId,
                  taskId: task.taskId,
                  status: 'COMPLETED',
                  outputData: { by: w },
                }),
                'update',
              );
              completed++;
            }),
          );
        }
      }),
    );

    expect(completed).toBe(total);
    expect([...handedOut.values()].every((n) => n === 1)).toBe(true);
    for (const id of ids) {
      let run: { status: string; tasks: { referenceTaskName: string; status: string }[] } | undefined;
      for (let attempt = 0; attempt < 100; attempt++) {
        run = JSON.parse(expectStatus(await a.get(`/api/workflow/${id}`), 'read run').body);
        if (run?.status === 'COMPLETED') break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(run?.status).toBe('COMPLETED');
      // One row per task: no task scheduled twice by racing decides.
      expect(run?.tasks.map((t) => t.referenceTaskName)).toEqual(['t0', 't1', 't2']);
      expect(run?.tasks.every((t) => t.status === 'COMPLETED')).toBe(true);
    }
  }, 180_000);
  it('holds concurrentExecLimit across both processes', async () => {
    const [a, b] = clients as [HttpClient, HttpClient];
    expectStatus(
      await a.post('/api/metadata/taskdefs', [
        { name: 'two_limited', retryCount: 0, concurrentExecLimit: 2, ownerEmail: 'test@example.com' },
      ]),
      'task definition',
    );
    expectStatus(
      await a.post('/api/metadata/workflow', {
        name: 'two_limited_wf',
        version: 1,
        schemaVersion: 2,
        ownerEmail: 'test@example.com',
        tasks: [{ name: 'two_limited', taskReferenceName: 'only', type: 'SIMPLE' }],
      }),
      'workflow definition',
    );
    for (let i = 0; i < 6; i++)
      expectStatus(await (i % 2 ? a : b).post('/api/workflow/two_limited_wf', {}), 'start');
    const pollBoth = async () => {
      const answers = await Promise.all(
        [a, b, a, b].map((client, i) =>
          client.get(`/api/tasks/poll/batch/two_limited?workerid=l${i}&count=5&timeout=200`),
        ),
      );
      return answers.flatMap((answer) => JSON.parse(expectStatus(answer, 'poll').body) as Polled[]);
    };
    // Every run's task is queued (decides run asynchronously on the server that took the start).
    for (let attempt = 0; attempt < 200; attempt++) {
      const size = Number(
        expectStatus(await a.get('/api/tasks/queue/size?taskType=two_limited'), 'size').body,
      );
      if (size === 6) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const first = await pollBoth();
    expect(first).toHaveLength(2);
    expect(await pollBoth()).toHaveLength(0);
    const done = first[0] as Polled;
    expectStatus(
      await b.post('/api/tasks', {
        workflowInstanceId: done.workflowInstanceId,
        taskId: done.taskId,
        status: 'COMPLETED',
        outputData: {},
      }),
      'update',
    );
    expect(await pollBoth()).toHaveLength(1);
  }, 60_000);
});
