/**
 * DO_WHILE through the in-memory engine (docs/conductor-compat.md §5.6): iterations and their
 * `__N` names, the loop's output, the condition, failures, list mode, keepLastN, operators nested
 * in the body, and a working set that stays the same size however long the loop runs.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createQuickJsEvaluator, type ScriptEvaluator } from '../../../lib/engine/script/evaluator.ts';
import type { TaskRecord } from '../../../lib/model/execution.ts';
import { type EngineHarness, engineHarness } from '../../helpers/engine.ts';
import { loop, ref, script, worker } from '../../helpers/fixtures.ts';

describe('DO_WHILE', () => {
  // One sandbox for the whole file: starting its worker thread costs more than most tests here.
  let scripts: ScriptEvaluator;
  let h: EngineHarness;
  beforeAll(() => {
    scripts = createQuickJsEvaluator();
  });
  afterAll(() => scripts.close());
  beforeEach(async () => {
    h = await engineHarness({ scripts });
  });
  afterEach(() => h.close());

  async function refs(id: string): Promise<[string, string][]> {
    return (await h.tasks(id)).map((t) => [t.referenceTaskName, t.status]);
  }

  /** The loop task as the API shows it: its output rebuilt in full from the body rows. */
  async function loopView(id: string): Promise<TaskRecord | undefined> {
    const row = await h.task(id, 'loop');
    return row && h.services.engine.tasks.getTask(row.taskId);
  }

  async function mustPoll(type: string): Promise<TaskRecord> {
    const task = await h.poll(type);
    if (!task) throw new Error(`no ${type} task ready to poll`);
    return task;
  }

  it("runs its body while the condition holds, naming each iteration's tasks __N", async () => {
    await h.register({
      name: 'three_pages',
      tasks: [
        loop(
          [
            worker('fetch', { inputParameters: { page: ref('loop.output.iteration') } }),
            script('count', '$.rows * 10', { rows: ref('fetch.output.rows') }),
          ],
          '$.loop.iteration < 3',
        ),
        worker('after', { inputParameters: { lastCount: ref('count.output.result') } }),
      ],
    });
    const id = await h.start('three_pages');
    for (const page of [1, 2, 3]) {
      const fetch = await mustPoll('fetch');
      expect(fetch.referenceTaskName).toBe(`fetch__${page}`);
      expect(fetch.iteration).toBe(page);
      expect(fetch.inputData).toEqual({ page });
      await h.complete(fetch, { rows: page });
    }
    const after = await mustPoll('after');
    expect(after.inputData).toEqual({ lastCount: 30 });

    const looped = await loopView(id);
    expect(looped?.status).toBe('COMPLETED');
    expect(looped?.outputData).toEqual({
      iteration: 3,
      1: { fetch: { rows: 1 }, count: { result: 10 } },
      2: { fetch: { rows: 2 }, count: { result: 20 } },
      3: { fetch: { rows: 3 }, count: { result: 30 } },
    });
    expect(await refs(id)).toEqual([
      ['loop', 'COMPLETED'],
      ['fetch__1', 'COMPLETED'],
      ['count__1', 'COMPLETED'],
      ['fetch__2', 'COMPLETED'],
      ['count__2', 'COMPLETED'],
      ['fetch__3', 'COMPLETED'],
      ['count__3', 'COMPLETED'],
      ['after', 'IN_PROGRESS'],
    ]);
  });

  it('starts with iteration 1 in its output and only the first body task scheduled', async () => {
    await h.register({
      name: 'first_pass',
      tasks: [loop([worker('fetch'), worker('store')], '$.loop.iteration < 2')],
    });
    const id = await h.start('first_pass');
    const looped = await loopView(id);
    expect(looped?.status).toBe('IN_PROGRESS');
    expect(looped?.outputData).toEqual({ iteration: 1 });
    expect(await refs(id)).toEqual([
      ['loop', 'IN_PROGRESS'],
      ['fetch__1', 'SCHEDULED'],
    ]);
  });

  it('lets the first body task of an iteration read what the previous iteration produced', async () => {
    await h.register({
      name: 'paginate',
      tasks: [
        loop(
          [worker('fetch', { inputParameters: { cursor: ref('fetch.output.next') } })],
          '$.fetch.next != null',
        ),
      ],
    });
    const id = await h.start('paginate');
    const first = await mustPoll('fetch');
    expect(first.inputData).toEqual({ cursor: null });
    await h.complete(first, { next: 'c2' });
    const second = await mustPoll('fetch');
    expect(second.inputData).toEqual({ cursor: 'c2' });
    await h.complete(second, { next: null });
    expect((await h.run(id)).status).toBe('COMPLETED');
    expect((await loopView(id))?.outputData.iteration).toBe(2);
  });

  it("gives the condition the loop's resolved inputParameters", async () => {
    await h.register({
      name: 'until_limit',
      tasks: [
        loop([script('tick', '$.i', { i: ref('loop.output.iteration') })], '$.loop.iteration < $.limit', {
          inputParameters: { limit: ref('workflow.input.limit') },
        }),
      ],
    });
    const id = await h.start('until_limit', { limit: 4 });
    const looped = await loopView(id);
    expect(looped?.status).toBe('COMPLETED');
    expect(looped?.outputData.iteration).toBe(4);
    expect(looped?.outputData['4']).toEqual({ tick: { result: 4 } });
  });

  it('fails the run and cancels the loop when a body task fails', async () => {
    await h.register({
      name: 'loop_fails',
      tasks: [loop([worker('fetch')], '$.loop.iteration < 5')],
    });
    const id = await h.start('loop_fails');
    await h.work('fetch', { ok: true });
    await h.work('fetch', {}, 'FAILED', 'upstream down');
    const run = await h.run(id);
    expect(run.status).toBe('FAILED');
    expect(run.failedReferenceTaskNames).toEqual(['fetch__2']);
    expect(run.reasonForIncompletion).toContain('upstream down');
    expect((await loopView(id))?.status).toBe('CANCELED');
  });

  it("fails itself with the body task's reason when a permissive body task fails", async () => {
    await h.register({
      name: 'loop_permissive',
      tasks: [loop([worker('fetch', { permissive: true })], '$.loop.iteration < 5'), worker('after')],
    });
    const id = await h.start('loop_permissive');
    await h.work('fetch', {}, 'FAILED', 'no stock');
    const looped = await loopView(id);
    expect(looped?.status).toBe('FAILED');
    expect(looped?.reasonForIncompletion).toContain('no stock');
    expect(looped?.outputData.iteration).toBe(1);
    expect(await h.poll('after')).toBeUndefined();
    const run = await h.run(id);
    expect(run.status).toBe('FAILED');
    expect(run.failedReferenceTaskNames).toContain('loop');
  });

  it("counts an optional body task's failure as success and goes on looping", async () => {
    await h.register({
      name: 'loop_optional',
      tasks: [loop([worker('fetch', { optional: true })], '$.loop.iteration < 2')],
    });
    const id = await h.start('loop_optional');
    await h.work('fetch', {}, 'FAILED', 'flaky');
    expect((await h.task(id, 'fetch__1'))?.status).toBe('COMPLETED_WITH_ERRORS');
    await h.work('fetch', {});
    expect((await h.run(id)).status).toBe('COMPLETED');
  });

  it('fails with a terminal error when the condition throws', async () => {
    await h.register({
      name: 'loop_bad_condition',
      tasks: [loop([script('tick', '1')], '$.nothing.here > 1')],
    });
    const id = await h.start('loop_bad_condition');
    const looped = await loopView(id);
    expect(looped?.status).toBe('FAILED_WITH_TERMINAL_ERROR');
    expect(looped?.reasonForIncompletion).toContain('Unable to evaluate condition');
    expect((await h.run(id)).status).toBe('FAILED');
  });

  it('runs a SWITCH in its body, with the branch tasks named for the iteration', async () => {
    const parity = {
      name: 'parity',
      taskReferenceName: 'parity',
      type: 'SWITCH',
      evaluatorType: 'javascript',
      expression: '$.i % 2 === 0 ? "even" : "odd"',
      inputParameters: { i: ref('loop.output.iteration') },
      decisionCases: { even: [script('even', '"E" + $.i', { i: ref('loop.output.iteration') })] },
      defaultCase: [worker('odd')],
    };
    await h.register({
      name: 'loop_switch',
      tasks: [
        loop([parity, script('tail', '$.i', { i: ref('loop.output.iteration') })], '$.loop.iteration < 3'),
      ],
    });
    const id = await h.start('loop_switch');
    await h.work('odd', { n: 1 });
    await h.work('odd', { n: 3 });
    expect(await refs(id)).toEqual([
      ['loop', 'COMPLETED'],
      ['parity__1', 'COMPLETED'],
      ['odd__1', 'COMPLETED'],
      ['tail__1', 'COMPLETED'],
      ['parity__2', 'COMPLETED'],
      ['even__2', 'COMPLETED'],
      ['tail__2', 'COMPLETED'],
      ['parity__3', 'COMPLETED'],
      ['odd__3', 'COMPLETED'],
      ['tail__3', 'COMPLETED'],
    ]);
    const output = (await loopView(id))?.outputData;
    expect(output?.['2']).toEqual({
      parity: { evaluationResult: ['even'], selectedCase: 'even' },
      even: { result: 'E2' },
      tail: { result: 2 },
    });
    expect(output?.['3']).toMatchObject({ odd: { n: 3 }, tail: { result: 3 } });
    expect((await h.run(id)).status).toBe('COMPLETED');
  });

  describe('over a list', () => {
    it('runs once per item with loopIndex and loopItem in its output', async () => {
      await h.register({
        name: 'each_sku',
        tasks: [
          loop(
            [
              script('label', '$.index + ":" + $.sku', {
                index: ref('loop.output.loopIndex'),
                sku: ref('loop.output.loopItem'),
              }),
            ],
            'true',
            { items: ref('workflow.input.skus') },
          ),
        ],
      });
      const id = await h.start('each_sku', { skus: ['a', 'b', 'c'] });
      const looped = await loopView(id);
      expect(looped?.status).toBe('COMPLETED');
      expect(looped?.outputData).toEqual({
        iteration: 3,
        loopIndex: 2,
        loopItem: 'c',
        1: { label: { result: '0:a' } },
        2: { label: { result: '1:b' } },
        3: { label: { result: '2:c' } },
      });
    });

    it('reads the list from inputParameters._items and stops early when the condition says so', async () => {
      await h.register({
        name: 'each_item',
        tasks: [
          loop(
            [script('echo', '$.item', { item: ref('loop.output.loopItem') })],
            '$.echo.result !== "stop"',
            {
              inputParameters: { _items: ref('workflow.input.list') },
            },
          ),
        ],
      });
      const id = await h.start('each_item', { list: ['x', 'stop', 'never'] });
      const looped = await loopView(id);
      expect(looped?.outputData.iteration).toBe(2);
      expect((await h.tasks(id)).map((t) => t.referenceTaskName)).toEqual(['loop', 'echo__1', 'echo__2']);
    });

    it('completes at once with iteration 0 for an empty list, running no body task', async () => {
      await h.register({
        name: 'each_of_none',
        tasks: [loop([worker('label')], 'true', { items: ref('workflow.input.skus') }), worker('after')],
      });
      const id = await h.start('each_of_none', { skus: [] });
      const looped = await loopView(id);
      expect(looped?.status).toBe('COMPLETED');
      expect(looped?.outputData).toEqual({ iteration: 0 });
      expect(await refs(id)).toEqual([
        ['loop', 'COMPLETED'],
        ['after', 'SCHEDULED'],
      ]);
    });

    it('fails with a terminal error when the items are not a list', async () => {
      await h.register({
        name: 'each_of_text',
        tasks: [loop([worker('label')], 'true', { items: ref('workflow.input.skus') })],
      });
      const id = await h.start('each_of_text', { skus: 'abc' });
      expect((await loopView(id))?.status).toBe('FAILED_WITH_TERMINAL_ERROR');
      expect((await h.run(id)).status).toBe('FAILED');
    });
  });

  it('keeps only the last keepLastN iterations in its output', async () => {
    await h.register({
      name: 'keep_two',
      tasks: [
        loop([script('tick', '$.i', { i: ref('loop.output.iteration') })], '$.loop.iteration < 5', {
          inputParameters: { keepLastN: 2 },
        }),
      ],
    });
    const id = await h.start('keep_two');
    expect((await loopView(id))?.outputData).toEqual({
      iteration: 5,
      4: { tick: { result: 4 } },
      5: { tick: { result: 5 } },
    });
  });

  it("keeps the run's working set the same size at 50 iterations as at 5, while every row stays listed", async () => {
    await h.register({
      name: 'count_to',
      tasks: [
        loop([script('tick', '$.i', { i: ref('loop.output.iteration') })], '$.loop.iteration < $.stop', {
          inputParameters: { stop: ref('workflow.input.stop') },
        }),
      ],
    });
    const short = await h.start('count_to', { stop: 5 });
    const long = await h.start('count_to', { stop: 50 });
    for (const id of [short, long]) expect((await h.run(id)).status).toBe('COMPLETED');
    expect((await h.task(long, 'loop'))?.outputData.iteration).toBe(50);

    const shortSet = (await h.run(short)).tasks.length;
    const longSet = (await h.run(long)).tasks.length;
    expect(longSet).toBe(shortSet);
    expect(longSet).toBeLessThanOrEqual(2);

    const rows = await h.tasks(long);
    expect(rows).toHaveLength(51);
    expect(rows.at(-1)?.referenceTaskName).toBe('tick__50');
    expect(rows.filter((t) => t.status === 'COMPLETED')).toHaveLength(51);
  });

  it('runs more iterations of sync tasks than one decide has passes for', async () => {
    // A decide makes at most 200 passes, two per iteration here: the run must go on by itself.
    await h.register({
      name: 'long_count',
      tasks: [loop([script('tick', '$.i', { i: ref('loop.output.iteration') })], '$.loop.iteration < 150')],
    });
    const id = await h.start('long_count');
    expect((await h.run(id)).status).toBe('COMPLETED');
    expect((await loopView(id))?.outputData.iteration).toBe(150);
    expect(await h.tasks(id)).toHaveLength(151);
  });

  it('keeps the working set flat while a worker-driven loop is running', async () => {
    await h.register({
      name: 'worker_loop',
      tasks: [loop([worker('fetch'), script('tally', '1')], 'true')],
    });
    const id = await h.start('worker_loop');
    const sizes: number[] = [];
    for (let i = 1; i <= 12; i++) {
      await h.work('fetch');
      sizes.push((await h.run(id)).tasks.length);
    }
    expect(new Set(sizes.slice(2)).size).toBe(1);
    expect(sizes.at(-1)).toBeLessThanOrEqual(5);
    expect(await h.tasks(id)).toHaveLength(1 + 12 * 2 + 1);
  });

  it('gathers every iteration back into the run record once the loop is over, as the API shows them', async () => {
    await h.register({
      name: 'counting',
      tasks: [
        {
          name: 'loop',
          taskReferenceName: 'loop',
          type: 'DO_WHILE',
          loopCondition: 'if ($.loop.iteration < 6) { true; } else { false; }',
          loopOver: [
            {
              name: 'tick',
              taskReferenceName: 'tick',
              type: 'INLINE',
              inputParameters: {
                evaluatorType: 'javascript',
                expression: '$.n * 10',
                n: ['${', 'loop.output.iteration}'].join(''),
              },
            },
          ],
        },
      ],
    });
    const id = await h.start('counting');
    // While it ran the record held the last two iterations; at its end the executor gathered the
    // rest from the task rows, so that later templates read `${loop.output}` in full.
    const stored = (await h.run(id)).tasks.find((t) => t.referenceTaskName === 'loop');
    expect(Object.keys(stored?.outputData ?? {}).sort()).toEqual(['1', '2', '3', '4', '5', '6', 'iteration']);
    expect(stored?.loopEnd).toBeUndefined();
    const shown = await loopView(id);
    expect(shown?.outputData).toEqual({
      iteration: 6,
      ...Object.fromEntries([1, 2, 3, 4, 5, 6].map((n) => [String(n), { tick: { result: n * 10 } }])),
    });
    const viaReader = (await h.services.engine.reader.get(id, true)).tasks as {
      referenceTaskName: string;
      outputData: Record<string, unknown>;
    }[];
    expect(viaReader.find((t) => t.referenceTaskName === 'loop')?.outputData['1']).toEqual({
      tick: { result: 10 },
    });
  });
});
