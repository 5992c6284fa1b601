/**
 * Retention (`service.workflow.retention`): an ended run expires after the retention; reads and
 * search stop showing it at once, its DynamoDB item carries the TTL, and a run running again
 * (retry) loses its expiry. Off by default.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SearchService } from '../../lib/search/service.ts';
import { workflowItem } from '../../lib/store/dynamodb/execution-items.ts';
import { type EngineHarness, engineHarness } from '../helpers/engine.ts';
import { simpleTask, uniqueName } from '../helpers/fixtures.ts';

const HOUR = 3_600_000;
let harness: EngineHarness | undefined;

afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function endedRun(properties: Record<string, string> = {}) {
  const h = await engineHarness({ properties });
  harness = h;
  const name = uniqueName('keep');
  const type = uniqueName('work');
  await h.registerTaskDefs([{ name: type, retryCount: 0 }]);
  await h.register({ name, version: 1, tasks: [simpleTask('a', { name: type })] });
  const id = await h.start(name, {});
  await h.work(type, {}, 'FAILED');
  const search = new SearchService(h.services.stores.executions);
  return { h, id, name, type, search };
}

describe('retention', () => {
  it('is off by default: an ended run stays', async () => {
    const { h, id } = await endedRun();
    expect((await h.run(id)).status).toBe('FAILED');
    expect((await h.run(id)).expiresAt).toBeUndefined();
    await h.advance(1000 * HOUR);
    expect(await h.services.stores.executions.getWorkflow(id)).toBeDefined();
  });

  it('clears the wake-up of a run that expired before the decide that would clear it', async () => {
    const h = await engineHarness({ properties: { 'service.workflow.retention': '1h' } });
    harness = h;
    const name = uniqueName('halt');
    await h.register({ name, version: 1, tasks: [simpleTask('a', { name: uniqueName('work') })] });
    const id = await h.start(name, {});
    // The terminate leaves the run due, and the decide it asks for is lost with the process.
    const request = h.decisions.request.bind(h.decisions);
    h.decisions.request = (workflowId, delayMs) =>
      workflowId === id ? Promise.resolve() : request(workflowId, delayMs);
    await h.services.engine.operations.terminate(id, 'stop');
    h.decisions.request = request;
    const executions = h.services.stores.executions;
    expect((await executions.dueWakeups(h.clock.now(), 10)).map((d) => d.workflowId)).toEqual([id]);

    // The first sweep after the run expired decides it: the run reads as gone, and is due no more.
    await h.advance(2 * HOUR);
    expect(await executions.getWorkflow(id)).toBeUndefined();
    expect(await executions.dueWakeups(h.clock.now(), 10)).toEqual([]);
  });

  it('hides an expired run from reads and search, and writes the TTL', async () => {
    const { h, id, name, type, search } = await endedRun({ 'service.workflow.retention': '1h' });
    const run = await h.run(id);
    expect(run.status).toBe('FAILED');
    expect(run.expiresAt).toBe(run.endTime + HOUR);
    expect(workflowItem(run).ttl).toBe(Math.ceil((run.endTime + HOUR) / 1000));
    const query = { start: 0, size: 10, query: `workflowType=${name}` };
    expect((await search.workflows(query)).totalHits).toBe(1);

    await h.advance(HOUR - 1000);
    expect(await h.services.stores.executions.getWorkflow(id)).toBeDefined();
    await h.advance(2000);
    expect(await h.services.stores.executions.getWorkflow(id)).toBeUndefined();
    expect(await search.workflows(query)).toEqual({ totalHits: 0, results: [] });
    expect(
      await search.workflows({ start: 0, size: 10, query: `workflowType=${name}`, freeText: id }),
    ).toEqual({
      totalHits: 0,
      results: [],
    });
    expect((await search.tasks({ start: 0, size: 10, query: `taskType=${type}` })).totalHits).toBe(0);
    expect(await h.services.stores.executions.findWorkflows({ name })).toEqual([]);
  });

  it('a run running again loses its expiry', async () => {
    const { h, id } = await endedRun({ 'service.workflow.retention': '1h' });
    await h.services.engine.operations.retry(id);
    await h.settle();
    const run = await h.run(id);
    expect(run.status).toBe('RUNNING');
    expect(run.expiresAt).toBeUndefined();
    expect(workflowItem(run).ttl).toBeUndefined();
  });
});
