/**
 * NOOP (docs/conductor-compat.md §5.22) and LAMBDA (§5.17) through the in-memory engine: a NOOP
 * completes at once; a LAMBDA's function body runs with the input as `$`, and its failures fail it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type EngineHarness, engineHarness } from '../../helpers/engine.ts';
import { ref } from '../../helpers/fixtures.ts';

describe('NOOP and LAMBDA', () => {
  let h: EngineHarness;
  beforeEach(async () => {
    h = await engineHarness();
  });
  afterEach(() => h.close());

  it('NOOP completes at once and the run goes on', async () => {
    await h.register({
      name: 'noop_flow',
      tasks: [
        { name: 'nothing', taskReferenceName: 'nothing', type: 'NOOP' },
        { name: 'work', taskReferenceName: 'work', type: 'SIMPLE' },
      ],
    });
    const id = await h.start('noop_flow');
    expect((await h.task(id, 'nothing'))?.status).toBe('COMPLETED');
    await h.work('work', { ok: true });
    expect((await h.run(id)).status).toBe('COMPLETED');
  });

  it('LAMBDA returns the value of its function body over $', async () => {
    await h.register({
      name: 'lambda_flow',
      tasks: [
        {
          name: 'calc',
          taskReferenceName: 'calc',
          type: 'LAMBDA',
          inputParameters: {
            a: ref('workflow.input.a'),
            scriptExpression: 'if ($.a > 1) return { big: $.a * 2 }; return null;',
          },
        },
      ],
      outputParameters: { out: ref('calc.output.result') },
    });
    const id = await h.start('lambda_flow', { a: 21 });
    const run = await h.run(id);
    expect(run.status).toBe('COMPLETED');
    expect(run.output).toEqual({ out: { big: 42 } });
  });

  it('LAMBDA fails with output.error when the script throws', async () => {
    await h.register({
      name: 'lambda_throws',
      tasks: [
        {
          name: 'calc',
          taskReferenceName: 'calc',
          type: 'LAMBDA',
          inputParameters: { scriptExpression: 'throw new Error("nope");' },
        },
      ],
    });
    const id = await h.start('lambda_throws');
    const task = await h.task(id, 'calc');
    expect(task?.status).toBe('FAILED');
    expect(String(task?.outputData.error)).toContain('nope');
    expect((await h.run(id)).status).toBe('FAILED');
  });
});
