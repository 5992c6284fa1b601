/**
 * JSON_JQ_TRANSFORM (docs/conductor-compat.md §5.18) through the in-memory engine: jq over the whole
 * input, `result` and `resultList`, jq's own error message, and the time limit of a runaway filter.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createJqEvaluator } from '../../../lib/engine/jq/jq.ts';
import { type EngineHarness, engineHarness } from '../../helpers/engine.ts';
import { type Json, ref } from '../../helpers/fixtures.ts';

const jq = (queryExpression: string, input: Json = {}): Json => ({
  name: 'transform',
  taskReferenceName: 'transform',
  type: 'JSON_JQ_TRANSFORM',
  inputParameters: { ...input, queryExpression },
});

describe('JSON_JQ_TRANSFORM', () => {
  let h: EngineHarness;
  beforeEach(async () => {
    h = await engineHarness();
  });
  afterEach(() => h.close());

  async function runOne(task: Json, input: Json = {}): Promise<string> {
    await h.register({ name: 'jq_flow', tasks: [task] });
    return h.start('jq_flow', input);
  }

  it('runs the filter over the whole input: result is the first value, resultList every value', async () => {
    const id = await runOne(
      jq('.orders[] | select(.total > 10) | .id', { orders: ref('workflow.input.orders') }),
      {
        orders: [
          { id: 'a', total: 5 },
          { id: 'b', total: 12 },
          { id: 'c', total: 30 },
        ],
      },
    );
    const task = await h.task(id, 'transform');
    expect(task?.status).toBe('COMPLETED');
    expect(task?.outputData).toEqual({ result: 'b', resultList: ['b', 'c'] });
    expect((await h.run(id)).status).toBe('COMPLETED');
  });

  it('builds objects with the usual jq functions', async () => {
    const id = await runOne(
      jq('{names: [.people[].name] | sort, count: (.people | length)}', {
        people: [{ name: 'z' }, { name: 'a' }],
      }),
    );
    expect((await h.task(id, 'transform'))?.outputData.result).toEqual({ names: ['a', 'z'], count: 2 });
  });

  it("fails the task with jq's message on a syntax error", async () => {
    const id = await runOne(jq('.a |||'));
    const task = await h.task(id, 'transform');
    expect(task?.status).toBe('FAILED');
    expect(task?.reasonForIncompletion).toContain('syntax error');
    expect(task?.outputData.error).toBe(task?.reasonForIncompletion);
  });

  it("fails the task with jq's message on a runtime error", async () => {
    const id = await runOne(jq('.a[]', { a: 1 }));
    const task = await h.task(id, 'transform');
    expect(task?.status).toBe('FAILED');
    expect(task?.reasonForIncompletion).toContain('Cannot iterate over number');
  });

  it('registers only with a queryExpression (400 with what is missing)', async () => {
    await expect(
      h.register({
        name: 'jq_missing',
        tasks: [{ name: 't', taskReferenceName: 't', type: 'JSON_JQ_TRANSFORM' }],
      }),
    ).rejects.toThrow(/queryExpression is required/);
  });
});

describe('the jq evaluator', () => {
  const evaluator = createJqEvaluator({ timeoutMs: 300 });
  afterAll(() => evaluator.close());

  it('stops a filter that never ends at its time limit, and keeps working after', async () => {
    await expect(evaluator.evaluate('[repeat(1)]', {})).rejects.toThrow(/timed out after 300 ms/);
    expect(await evaluator.evaluate('.a + 1', { a: 1 })).toEqual([2]);
  });
});
