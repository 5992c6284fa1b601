/**
 * Hand-off latency and DO_WHILE iteration time over HTTP, as a worker sees them (bench/README.md,
 * `bench/handoff.ts`). Both use one worker whose long poll waits on the server while the task it
 * gets is being queued, so the figures measure how fast a queued task reaches a waiting poll.
 */
import { performance } from 'node:perf_hooks';
import { doWhileWorkflow, OWNER, simpleTask } from './definitions.ts';
import { expectStatus, type HttpClient } from './http-client.ts';
import type { WorkerMode } from './load.ts';

const A = 'bench_handoff_a';
const B = 'bench_handoff_b';
const BODY = 'bench_loop_body';
const PAIR = 'bench_handoff_pair';
const LOOP = 'bench_loop_simple';
/** Long-poll timeout of the waiting worker: far above any hand-off, so a poll never ends empty. */
const POLL_TIMEOUT_MS = 5000;

export async function registerHandoffWorkload(client: HttpClient): Promise<void> {
  expectStatus(
    await client.post(
      '/api/metadata/taskdefs',
      [A, B, BODY].map((name) => ({ name, retryCount: 0, ownerEmail: OWNER })),
    ),
    'register task definitions',
  );
  expectStatus(
    await client.post('/api/metadata/workflow', {
      name: PAIR,
      version: 1,
      schemaVersion: 2,
      ownerEmail: OWNER,
      tasks: [simpleTask(A, 'a'), simpleTask(B, 'b')],
    }),
    'register the pair workflow',
  );
  expectStatus(
    await client.post('/api/metadata/workflow', doWhileWorkflow(LOOP, [simpleTask(BODY, 'body')])),
    'register the loop workflow',
  );
}

interface PolledTask {
  taskId: string;
  workflowInstanceId: string;
}

async function pollOne(client: HttpClient, type: string): Promise<PolledTask> {
  const answer = expectStatus(
    await client.get(`/api/tasks/poll/batch/${type}?workerid=bench&count=1&timeout=${POLL_TIMEOUT_MS}`),
    `poll ${type}`,
  );
  const [task] = JSON.parse(answer.body) as PolledTask[];
  if (!task) throw new Error(`a ${POLL_TIMEOUT_MS} ms long poll of ${type} ended with no task`);
  return task;
}

async function complete(client: HttpClient, task: PolledTask): Promise<void> {
  expectStatus(
    await client.post('/api/tasks', {
      workflowInstanceId: task.workflowInstanceId,
      taskId: task.taskId,
      status: 'COMPLETED',
      outputData: {},
    }),
    'update task',
  );
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Hand-off samples, ms: a run of two SIMPLE tasks a → b; the worker's poll of b waits on the server
 * while the worker completes a; the sample is the time from the answer of a's update to the answer
 * of b's poll (the decide that schedules b, the queue write, the waiting poll's claim, the answer).
 */
export async function measureHandoff(client: HttpClient, samples: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < samples; i++) {
    expectStatus(await client.post(`/api/workflow/${PAIR}`, {}), 'start');
    const a = await pollOne(client, A);
    const waiting = pollOne(client, B).then((task) => ({ task, at: performance.now() }));
    // Lets the poll of b reach the server and park before a is completed.
    await pause(3);
    await complete(client, a);
    const updated = performance.now();
    const { task, at } = await waiting;
    out.push(at - updated);
    await complete(client, task);
  }
  return out;
}

/**
 * Completes a task with update-v2, as the official SDK's workers do: the answer is the worker's
 * next task of the type (200), or 204.
 */
async function completeAndTakeNext(client: HttpClient, task: PolledTask): Promise<PolledTask | undefined> {
  const answer = expectStatus(
    await client.post('/api/tasks/update-v2', {
      workflowInstanceId: task.workflowInstanceId,
      taskId: task.taskId,
      status: 'COMPLETED',
      outputData: {},
      workerId: 'bench',
    }),
    'update-v2',
    [200, 204],
  );
  return answer.status === 200 ? (JSON.parse(answer.body) as PolledTask) : undefined;
}

/**
 * DO_WHILE iteration samples, ms: one run of `iterations` iterations of a one-SIMPLE-task body and
 * one worker; a sample is the time between the worker getting two consecutive iterations' tasks.
 * `plain`: the worker long-polls, completes with POST /api/tasks, polls again (complete, decide:
 * next iteration, queue write, poll answered). `sdk`: the official SDK's loop, completing with
 * update-v2, whose answer is the next iteration's task once the update's decide scheduled it
 * (a poll only after a 204).
 */
export async function measureLoop(
  client: HttpClient,
  iterations: number,
  mode: WorkerMode = 'plain',
): Promise<number[]> {
  expectStatus(await client.post(`/api/workflow/${LOOP}`, { iterations }), 'start loop');
  const out: number[] = [];
  let last: number | undefined;
  let handed: PolledTask | undefined;
  for (let i = 0; i < iterations; i++) {
    const task = handed ?? (await pollOne(client, BODY));
    const now = performance.now();
    if (last !== undefined) out.push(now - last);
    last = now;
    if (mode === 'sdk') handed = await completeAndTakeNext(client, task);
    else await complete(client, task);
  }
  // The last iteration's update-v2 finds no next task: the run is over.
  if (handed) throw new Error(`update-v2 handed out ${handed.taskId} after the loop's last iteration`);
  return out;
}
