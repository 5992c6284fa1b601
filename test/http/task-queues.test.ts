/**
 * Queue introspection and maintenance under /api/tasks/queue (docs/conductor-compat.md §1.1): sizes
 * that follow scheduled tasks, poll data naming the workers that polled, and requeue answering a
 * count as text.
 */
import { describe, expect, it } from 'vitest';
import { type Json, uniqueName } from '../helpers/fixtures.ts';
import { errorBody, pathsOf, useTestServer } from '../helpers/server.ts';
import { ExecutionApi, eventually, expectJson, expectText } from './execution-api.ts';

const api = new ExecutionApi(useTestServer());

interface PollDataShape {
  queueName: string;
  domain?: string;
  workerId?: string;
  lastPollTime: number;
}

/** Registers a workflow whose first task type is new, and starts it `runs` times. */
async function scheduled(runs: number): Promise<{ first: string; second: string; ids: string[] }> {
  const { name, first, second } = await api.registerChain();
  const ids: string[] = [];
  for (let i = 0; i < runs; i++) ids.push(await api.start(name));
  await eventually(async () => expect(await queueSize(first)).toBe(runs));
  return { first, second, ids };
}

async function queueSize(type: string): Promise<number> {
  return expectJson<number>(await api.get(`/api/tasks/queue/size?taskType=${type}`));
}

describe('GET /api/tasks/queue/sizes', () => {
  it('counts the scheduled tasks of each type asked for, and drops a polled one', async () => {
    const { first, second } = await scheduled(2);
    const sizes = await expectJson<Json>(
      await api.get(`/api/tasks/queue/sizes?taskType=${first}&taskType=${second}`),
    );
    expect(sizes).toEqual({ [first]: 2, [second]: 0 });
    await api.pollEventually(first);
    expect(await expectJson<Json>(await api.get(`/api/tasks/queue/sizes?taskType=${first}`))).toEqual({
      [first]: 1,
    });
  });

  it('answers an empty map when no type is named', async () => {
    expect(await expectJson<Json>(await api.get('/api/tasks/queue/sizes'))).toEqual({});
  });
});

describe('GET /api/tasks/queue/size', () => {
  it('answers the size of one queue as a number', async () => {
    const { first } = await scheduled(3);
    expect(await queueSize(first)).toBe(3);
    expect(await queueSize(uniqueName('empty'))).toBe(0);
  });

  it('requires taskType', async () => {
    const body = await errorBody(await api.get('/api/tasks/queue/size'), 400);
    expect(pathsOf(body)).toContain('taskType');
  });
});

describe('GET /api/tasks/queue/all and /all/verbose', () => {
  it('lists every queue with its size', async () => {
    const { first } = await scheduled(2);
    const all = await expectJson<Json>(await api.get('/api/tasks/queue/all'));
    expect(all[first]).toBe(2);
    const verbose = await expectJson<Record<string, Record<string, { size: number; uacked: number }>>>(
      await api.get('/api/tasks/queue/all/verbose'),
    );
    const shards = Object.values(verbose[first] ?? {});
    expect(shards.reduce((sum, shard) => sum + shard.size, 0)).toBe(2);
  });
});

describe('poll data', () => {
  it('names the worker that polled a type, with the time of its last poll', async () => {
    const type = uniqueName('polled');
    const before = Date.now();
    expect(await api.poll(type, 'worker-7')).toBeUndefined();
    const all = await expectJson<PollDataShape[]>(await api.get('/api/tasks/queue/polldata/all'));
    const entry = all.find((p) => p.queueName === type);
    expect(entry).toMatchObject({ queueName: type, workerId: 'worker-7' });
    expect(entry?.lastPollTime).toBeGreaterThanOrEqual(before);

    const forType = await expectJson<PollDataShape[]>(
      await api.get(`/api/tasks/queue/polldata?taskType=${type}`),
    );
    expect(forType.map((p) => p.workerId)).toEqual(['worker-7']);
  });

  it('includes the polls made with a domain in the per-type view', async () => {
    const type = uniqueName('domained');
    await api.get(`/api/tasks/poll/${type}?workerid=plain-worker`);
    await api.get(`/api/tasks/poll/${type}?workerid=domain-worker&domain=eu`);
    const forType = await expectJson<PollDataShape[]>(
      await api.get(`/api/tasks/queue/polldata?taskType=${type}`),
    );
    expect(forType.map((p) => [p.domain ?? null, p.workerId]).sort()).toEqual(
      [
        [null, 'plain-worker'],
        ['eu', 'domain-worker'],
      ].sort(),
    );
  });

  it('requires taskType on the per-type route', async () => {
    await errorBody(await api.get('/api/tasks/queue/polldata'), 400);
  });
});

describe('POST /api/tasks/queue/requeue/{taskType}', () => {
  it('answers how many scheduled tasks were re-pushed, as text/plain', async () => {
    const { first } = await scheduled(2);
    expect(await expectText(await api.send('POST', `/api/tasks/queue/requeue/${first}`))).toBe('2');
    expect(await queueSize(first)).toBe(2);
  });

  it('answers 0 for a type with nothing queued', async () => {
    expect(await expectText(await api.send('POST', `/api/tasks/queue/requeue/${uniqueName('none')}`))).toBe(
      '0',
    );
  });
});
