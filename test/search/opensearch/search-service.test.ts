// SearchService answering from the OpenSearch index (loopback fake) and reading records from the store.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generationAt, taskIdOf } from '../../../lib/model/ids.ts';
import { OpenSearchIndex } from '../../../lib/search/opensearch/opensearch-index.ts';
import { SignedOpenSearchHttp } from '../../../lib/search/opensearch/signed-http.ts';
import { SearchService } from '../../../lib/search/service.ts';
import { MemoryExecutionStore } from '../../../lib/store/memory/executions.ts';
import { taskOf, workflowOf } from '../../store/executions.contract.ts';
import { FakeOpenSearch, hitsOf } from './fake-opensearch.ts';

const T0 = 1_700_000_000_000;
const credentials = async () => ({ accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' });

describe('SearchService on the OpenSearch backend', () => {
  const fake = new FakeOpenSearch();
  let search: SearchService;

  beforeEach(async () => {
    fake.requests.length = 0;
    await fake.start();
    const store = new MemoryExecutionStore();
    for (const [i, id] of ['wf-1', 'wf-2'].entries()) {
      await store.createWorkflow(workflowOf(id, { createTime: T0 + i, workflowName: 'orders' }));
      await store.createTasks([taskOf(id, `t-${id}`, 1)]);
    }
    const index = new OpenSearchIndex(
      new SignedOpenSearchHttp({ url: fake.url, region: 'us-east-1', service: 'aoss' }, credentials),
      'conductor',
    );
    search = new SearchService(store, index, { now: () => T0 + 1000 });
  });

  afterEach(async () => {
    await fake.stop();
  });

  it('returns the records of the ids OpenSearch found, in its order, dropping runs the store no longer has', async () => {
    fake.answer(hitsOf(3, [{ workflowId: 'wf-2' }, { workflowId: 'wf-gone' }, { workflowId: 'wf-1' }]));
    const found = await search.workflowSummaries({
      start: 0,
      size: 3,
      query: 'workflowType = orders',
      sort: 'startTime:DESC',
    });
    expect(found.totalHits).toBe(2);
    expect(found.results.map((r) => r.workflowId)).toEqual(['wf-2', 'wf-1']);
    expect(found.results[0]?.startTime).toBe(new Date(T0 + 1).toISOString());
    const body = JSON.parse(fake.requests[0]?.body ?? '');
    expect(body.query.bool.filter[1]).toEqual({
      bool: { must_not: [{ range: { expiresAt: { lte: T0 + 1000 } } }] },
    });
  });

  it('reads task rows of the refs found, leaving out those of runs that are gone', async () => {
    fake.answer(
      hitsOf(2, [
        { workflowId: 'wf-1', taskId: 't-wf-1' },
        { workflowId: 'wf-gone', taskId: 't-gone' },
      ]),
    );
    const found = await search.taskSummaries({ start: 0, size: 10, query: 'taskType = SIMPLE' });
    expect(found).toMatchObject({ totalHits: 1, results: [{ taskId: 't-wf-1', workflowId: 'wf-1' }] });
  });

  it('leaves out the rows an earlier run under a reused id left', async () => {
    const store = new MemoryExecutionStore();
    const run = workflowOf('wf-9', { createTime: T0, generation: generationAt(T0) });
    await store.createWorkflow(run);
    const own = taskOf('wf-9', taskIdOf(run, 'ref-own', 0), 1, { referenceTaskName: 'ref-own' });
    const left = taskOf('wf-9', taskIdOf({ workflowId: 'wf-9' }, 'ref-old', 0), 2, {
      referenceTaskName: 'ref-old',
    });
    await store.createTasks([own, left]);
    const index = new OpenSearchIndex(
      new SignedOpenSearchHttp({ url: fake.url, region: 'us-east-1', service: 'aoss' }, credentials),
      'conductor',
    );
    fake.answer(
      hitsOf(2, [
        { workflowId: 'wf-9', taskId: left.taskId },
        { workflowId: 'wf-9', taskId: own.taskId },
      ]),
    );
    const found = await new SearchService(store, index, { now: () => T0 + 1000 }).taskSummaries({
      start: 0,
      size: 10,
      query: 'taskType = SIMPLE',
    });
    expect(found).toMatchObject({ totalHits: 1, results: [{ taskId: own.taskId }] });
  });

  it('searches runs by their tasks through the whole result window, then sorts the runs', async () => {
    fake.answer(
      hitsOf(3, [
        { workflowId: 'wf-1', taskId: 't-wf-1' },
        { workflowId: 'wf-2', taskId: 't-wf-2' },
        { workflowId: 'wf-1', taskId: 't-other' },
      ]),
    );
    const found = await search.workflowSummariesByTasks({ start: 0, size: 10, query: 'status = SCHEDULED' });
    expect(found.results.map((r) => r.workflowId)).toEqual(['wf-2', 'wf-1']);
    expect(found.totalHits).toBe(2);
    const body = JSON.parse(fake.requests[0]?.body ?? '');
    expect(fake.requests[0]?.path).toBe('/conductor-tasks/_search');
    expect([body.from, body.size]).toEqual([0, 10_000]);
  });

  it('answers 400 when more tasks match than one window holds, rather than a partial list of runs', async () => {
    fake.answer(hitsOf(20_000, [{ workflowId: 'wf-1', taskId: 't-wf-1' }]));
    await expect(search.workflowsByTasks({ start: 0, size: 10 })).rejects.toThrow(
      /More than 10000 tasks match/,
    );
  });

  it('checks the query before asking OpenSearch: an unknown field is a 400 and no request', async () => {
    await expect(search.workflows({ start: 0, size: 10, query: 'nope = 1' })).rejects.toThrow(/nope/);
    expect(fake.requests).toHaveLength(0);
  });
});
