/**
 * Test runs below HTTP (lib/workflows/test-run): isolation from the service's own stores (no run,
 * no queue entry, no wake-up, definitions untouched), nested sub-workflow plans, mock books and the
 * private decision queue, and the bounds that end every test run.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createQuickJsEvaluator } from '../../lib/engine/script/evaluator.ts';
import { silentLogger } from '../../lib/log/logger.ts';
import { MetadataService } from '../../lib/metadata/service.ts';
import { ManualClock } from '../../lib/model/clock.ts';
import { randomIds } from '../../lib/model/ids.ts';
import { PayloadLocations } from '../../lib/payloads/locations.ts';
import { MemoryPayloadStore } from '../../lib/payloads/memory.ts';
import { createEngine } from '../../lib/runtime/engine.ts';
import { createMemoryStores } from '../../lib/runtime/stores.ts';
import { LocalRunWatcher } from '../../lib/workflows/progress.ts';
import { SimulatedDecisionQueue } from '../../lib/workflows/test-run/decision-queue.ts';
import { MockBook } from '../../lib/workflows/test-run/mock-book.ts';
import { parseTestRequest, type TestPlan } from '../../lib/workflows/test-run/request.ts';
import { engineHarness } from '../helpers/engine.ts';
import { type Json, loop, ref, worker } from '../helpers/fixtures.ts';

const scripts = createQuickJsEvaluator();
afterAll(() => scripts.close());

const subWorkflow = (refName: string, param: Json): Json => ({
  name: refName,
  taskReferenceName: refName,
  type: 'SUB_WORKFLOW',
  subWorkflowParam: param,
});

describe('a test run', () => {
  it('leaves no run, queue entry or wake-up in the service stores, and no definition changed', async () => {
    const h = await engineHarness({ scripts });
    try {
      await h.register({ name: 'grandchild', version: 1, tasks: [worker('deep')] });
      await h.register({
        name: 'child',
        version: 1,
        tasks: [subWorkflow('inner', { name: 'grandchild', version: 1 })],
        outputParameters: { deep: ref('inner.output.deep') },
      });
      await h.registerTaskDefs([{ name: 'top', retryCount: 0 }]);
      const defsBefore = await h.stores.workflowDefs.list();
      const run = await h.services.engine.testRuns.run({
        workflowDef: {
          name: 'parent',
          version: 1,
          tasks: [worker('top'), subWorkflow('outer', { name: 'child', version: 1 })],
          outputParameters: { deep: ref('outer.output.deep') },
        },
        taskRefToMockOutput: { top: [{ status: 'FAILED' }] },
        subWorkflowTestRequest: {},
      });
      // The registered task definition (retryCount 0) applies: one failure ends the run.
      expect(run.status).toBe('FAILED');
      expect(await h.stores.executions.getWorkflow(run.workflowId)).toBeUndefined();
      expect(await h.stores.executions.findWorkflows({ name: 'parent' })).toEqual([]);
      expect(await h.stores.queue.sizes()).toEqual({});
      expect(await h.stores.executions.dueWakeups(Number.MAX_SAFE_INTEGER, 10)).toEqual([]);
      expect(await h.stores.workflowDefs.list()).toEqual(defsBefore);
    } finally {
      await h.close();
    }
  });

  it('takes mocks two levels down, and a replacement definition inside a registered child', async () => {
    const h = await engineHarness({ scripts });
    try {
      await h.register({ name: 'grandchild', version: 1, tasks: [worker('never')] });
      await h.register({
        name: 'child',
        version: 1,
        tasks: [subWorkflow('inner', { name: 'grandchild', version: 1 })],
        outputParameters: { deep: ref('inner.output.deep') },
      });
      const run = await h.services.engine.testRuns.run({
        workflowDef: {
          name: 'parent',
          version: 1,
          tasks: [subWorkflow('outer', { name: 'child', version: 1 })],
          outputParameters: { deep: ref('outer.output.deep') },
        },
        subWorkflowTestRequest: {
          outer: {
            subWorkflowTestRequest: {
              inner: {
                workflowDef: {
                  name: 'grandchild',
                  version: 9,
                  tasks: [worker('deep')],
                  outputParameters: { deep: ref('deep.output.value') },
                },
                taskRefToMockOutput: { deep: [{ output: { value: 'bottom' } }] },
              },
            },
          },
        },
      });
      expect(run).toMatchObject({ status: 'COMPLETED', output: { deep: 'bottom' } });
      expect(await h.poll('never')).toBeUndefined();
      expect(await h.poll('deep')).toBeUndefined();
      for (const name of ['parent', 'child', 'grandchild']) {
        expect(await h.stores.executions.findWorkflows({ name })).toEqual([]);
      }
      expect(await h.stores.queue.sizes()).toEqual({});
    } finally {
      await h.close();
    }
  });

  it('gives loop iterations the mocks of their base reference, in order', async () => {
    const h = await engineHarness({ scripts });
    try {
      const run = await h.services.engine.testRuns.run({
        workflowDef: {
          name: 'looping',
          version: 1,
          tasks: [loop([worker('step')], '$.loop.iteration < 3')],
        },
        taskRefToMockOutput: {
          step: [
            { output: { more: true, n: 1 } },
            { output: { more: true, n: 2 } },
            { output: { more: false, n: 3 } },
          ],
        },
      });
      expect(run.status).toBe('COMPLETED');
      const steps = (run.tasks ?? []).filter((t) => t.referenceTaskName.startsWith('step'));
      expect(steps.map((t) => t.outputData.n)).toEqual([1, 2, 3]);
    } finally {
      await h.close();
    }
  });

  it('ends a run that never ends on its own once the wall-clock bound is spent', async () => {
    // A host clock that moves a second at every reading: the 10-second bound comes at once.
    let now = Date.UTC(2026, 0, 1);
    const stores = createMemoryStores();
    const engine = createEngine({
      stores,
      simulationStores: createMemoryStores,
      watcher: new LocalRunWatcher(),
      metadata: new MetadataService(stores.workflowDefs, stores.taskDefs, new ManualClock()),
      decisions: new SimulatedDecisionQueue(new ManualClock()),
      scripts,
      clock: { now: () => (now += 1000) },
      ids: randomIds,
      logger: silentLogger,
      payloads: new PayloadLocations(new MemoryPayloadStore(), 3600),
    });
    const run = await engine.testRuns.run({
      workflowDef: {
        name: 'forever',
        version: 1,
        tasks: [
          {
            name: 'loop',
            taskReferenceName: 'loop',
            type: 'DO_WHILE',
            loopCondition: 'true',
            loopOver: [
              { name: 'set', taskReferenceName: 'set', type: 'SET_VARIABLE', inputParameters: { a: 1 } },
            ],
          },
        ],
      },
    });
    expect(run.status).toBe('RUNNING');
  });
});

describe('MockBook', () => {
  const plan = (mocks: Record<string, Json[]>, children: Record<string, TestPlan> = {}): TestPlan => ({
    ...parseTestRequest({ name: 'x', taskRefToMockOutput: mocks }, () => ({ name: 'x' })).plan,
    children: new Map(Object.entries(children)),
  });

  it('pops mocks in order, defaults them, and falls back from an iteration to its base reference', () => {
    const book = new MockBook(
      plan({ a: [{ status: 'FAILED' }, { output: { ok: 1 } }], a__2: [{ output: { own: 1 } }] }),
    );
    expect(book.take('a')).toEqual({ status: 'FAILED', output: {}, executionTime: 0, queueWaitTime: 0 });
    expect(book.take('a__2')?.output).toEqual({ own: 1 });
    expect(book.has('a__3')).toBe(true);
    expect(book.take('a__3')?.output).toEqual({ ok: 1 });
    expect(book.has('a')).toBe(false);
    expect(book.take('b')).toBeUndefined();
  });

  it('keeps one book per sub-workflow reference, so a retried child goes on with the same mocks', () => {
    const book = new MockBook(plan({}, { sub: plan({ x: [{}, {}] }) }));
    book.child('sub').take('x');
    expect(book.child('sub').has('x')).toBe(true);
    book.child('sub').take('x');
    expect(book.child('sub').has('x')).toBe(false);
    expect(book.child('other').has('x')).toBe(false);
  });

  it('does not consume the parsed plan', () => {
    const parsed = plan({ a: [{}] });
    new MockBook(parsed).take('a');
    expect(new MockBook(parsed).has('a')).toBe(true);
  });
});

describe('SimulatedDecisionQueue', () => {
  it('coalesces requests, holds delayed ones as wake-ups and releases them when due', async () => {
    const clock = new ManualClock(1000);
    const queue = new SimulatedDecisionQueue(clock);
    await queue.request('a');
    await queue.request('a');
    await queue.request('b', 500);
    await queue.wakeAt('c', 1200);
    await queue.wakeAt('d', 5000);
    await queue.wakeAt('d', 0);
    expect(queue.next()).toBe('a');
    expect(queue.next()).toBeUndefined();
    expect(queue.nextWakeup()).toBe(1200);
    queue.releaseDue(1500);
    expect([queue.next(), queue.next(), queue.next()]).toEqual(['b', 'c', undefined]);
    expect(queue.nextWakeup()).toBeUndefined();
    expect([...queue.runs]).toEqual(['a', 'b', 'c', 'd']);
  });
});
