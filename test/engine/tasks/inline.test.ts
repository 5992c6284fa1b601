/**
 * INLINE through the in-memory engine (docs/conductor-compat.md §5.16): the result of a script over
 * the task's input, script failures, configuration errors, and the sandbox's limits.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createQuickJsEvaluator, type ScriptEvaluator } from '../../../lib/engine/script/evaluator.ts';
import { normalizeWorkflowDef } from '../../../lib/metadata/workflow-def.ts';
import { type EngineHarness, engineHarness } from '../../helpers/engine.ts';
import { inline, type Json, ref } from '../../helpers/fixtures.ts';

describe('INLINE', () => {
  // A tight time limit keeps the runaway-script test short.
  let scripts: ScriptEvaluator;
  let h: EngineHarness;
  beforeAll(() => {
    scripts = createQuickJsEvaluator({ defaults: { timeoutMs: 300 } });
  });
  afterAll(() => scripts.close());
  beforeEach(async () => {
    h = await engineHarness({ scripts });
  });
  afterEach(() => h.close());

  async function runOne(task: Json, input: Json = {}): Promise<string> {
    await h.register({ name: 'one_inline', tasks: [task], outputParameters: { out: ref('calc.output') } });
    return h.start('one_inline', input);
  }

  it('completes with the value of the expression, reading its resolved input as $', async () => {
    const id = await runOne(
      inline('calc', {
        a: ref('workflow.input.a'),
        expression: '({ doubled: $.a * 2, kind: $.evaluatorType })',
      }),
      { a: 21 },
    );
    const task = await h.task(id, 'calc');
    expect(task?.status).toBe('COMPLETED');
    expect(task?.outputData).toEqual({ result: { doubled: 42, kind: 'javascript' } });
    const run = await h.run(id);
    expect(run.status).toBe('COMPLETED');
    expect(run.output).toEqual({ out: { result: { doubled: 42, kind: 'javascript' } } });
  });

  it('runs with the javascript evaluator when evaluatorType is left out', async () => {
    const id = await runOne({
      name: 'calc',
      taskReferenceName: 'calc',
      type: 'INLINE',
      inputParameters: { expression: '[1, 2, 3].map((x) => x * 10)' },
    });
    expect((await h.task(id, 'calc'))?.outputData).toEqual({ result: [10, 20, 30] });
  });

  it('with the value-param evaluator returns the input parameter the expression names', async () => {
    const id = await runOne(
      inline('calc', { evaluatorType: 'value-param', expression: 'picked', picked: ref('workflow.input.p') }),
      { p: { deep: true } },
    );
    expect((await h.task(id, 'calc'))?.outputData).toEqual({ result: { deep: true } });
  });

  it('fails the task with output.error when the script throws, and without a task definition never retries', async () => {
    const id = await runOne(inline('calc', { expression: 'throw new Error("bad input " + $.x)', x: 7 }));
    const rows = await h.tasks(id);
    expect(rows).toHaveLength(1);
    const task = rows[0];
    expect(task?.status).toBe('FAILED');
    expect(task?.outputData.error).toContain('bad input 7');
    expect(task?.reasonForIncompletion).toContain('bad input 7');
    const run = await h.run(id);
    expect(run.status).toBe('FAILED');
    expect(run.failedReferenceTaskNames).toEqual(['calc']);
  });

  it('fails the task when the script does not compile', async () => {
    const id = await runOne(inline('calc', { expression: 'function (' }));
    const task = await h.task(id, 'calc');
    expect(task?.status).toBe('FAILED');
    expect(task?.outputData.error).toEqual(expect.any(String));
  });

  it('fails the task with a terminal error when the expression resolves to an empty string', async () => {
    const id = await runOne(inline('calc', { expression: ref('workflow.input.script') }), { script: '' });
    const task = await h.task(id, 'calc');
    expect(task?.status).toBe('FAILED_WITH_TERMINAL_ERROR');
    expect(task?.reasonForIncompletion).toContain("Empty 'expression'");
    expect((await h.run(id)).status).toBe('FAILED');
  });

  it('fails the task with a terminal error for an evaluator it does not have', async () => {
    // Registration refuses such an evaluator, so the definition goes straight to the store.
    const def = normalizeWorkflowDef({
      name: 'python_inline',
      tasks: [inline('calc', { evaluatorType: 'python', expression: '1 + 1' })],
    });
    await h.stores.workflowDefs.put(def, { overwrite: true });
    const id = await h.start('python_inline');
    const task = await h.task(id, 'calc');
    expect(task?.status).toBe('FAILED_WITH_TERMINAL_ERROR');
    expect(task?.reasonForIncompletion).toContain("Unknown evaluator 'python'");
  });

  it('fails the task, and leaves the host alone, when the script reaches for the host', async () => {
    const breakOut = 'this.constructor.constructor("return process")().exit(1)';
    const id = await runOne(inline('calc', { expression: breakOut }));
    const task = await h.task(id, 'calc');
    expect(task?.status).toBe('FAILED');
    expect(task?.reasonForIncompletion).toMatch(/process/);
    expect((await h.run(id)).status).toBe('FAILED');
  });

  it('fails the task with the timeout as reason when the script never ends', async () => {
    const id = await runOne(inline('calc', { expression: 'while (true) {}' }));
    const task = await h.task(id, 'calc');
    expect(task?.status).toBe('FAILED');
    expect(task?.reasonForIncompletion).toMatch(/timed out/);
    expect(task?.outputData.error).toMatch(/timed out/);
  });

  it('passes its result on to the next task through templating', async () => {
    await h.register({
      name: 'inline_then_worker',
      tasks: [
        inline('calc', { expression: '$.n + 1', n: ref('workflow.input.n') }),
        { name: 'consume', taskReferenceName: 'consume', inputParameters: { v: ref('calc.output.result') } },
      ],
    });
    await h.start('inline_then_worker', { n: 41 });
    const consumer = await h.poll('consume');
    expect(consumer?.inputData).toEqual({ v: 42 });
  });
});
